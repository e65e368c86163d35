(comment) @comment
(attribute_declaration) @decorator

[(if_statement) (for_statement) (for_range_loop) (while_statement) (do_statement)
 (case_statement) (catch_clause) (conditional_expression)] @decision
(binary_expression operator: ["&&" "||"]) @decision

[(if_statement) (for_statement) (for_range_loop) (while_statement) (do_statement)
 (switch_statement) (try_statement)] @nesting

(call_expression function: (identifier) @call.name)
(call_expression function: (field_expression field: (field_identifier) @call.name))
(call_expression function: (qualified_identifier name: (identifier) @call.name))
