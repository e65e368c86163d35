(comment) @comment

[(if_statement) (for_statement) (while_statement) (do_statement) (case_statement)
 (conditional_expression)] @decision
(binary_expression operator: ["&&" "||"]) @decision

[(if_statement) (for_statement) (while_statement) (do_statement)
 (switch_statement)] @nesting

(call_expression function: (identifier) @call.name)
