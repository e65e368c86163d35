(comment) @comment

[(if_statement) (for_statement) (while_statement) (do_statement) (case_statement)
 (conditional_expression)] @decision
(binary_expression operator: ["&&" "||"]) @decision

[(if_statement) (for_statement) (while_statement) (do_statement)
 (switch_statement)] @nesting

(call_expression function: (identifier) @call.name)

; Names one parameter list binds: Validate reports a name given twice.
(parameter_list (parameter_declaration
  declarator: [(identifier) @parameter.name
               (pointer_declarator declarator: (identifier) @parameter.name)
               (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @parameter.name))
               (array_declarator declarator: (identifier) @parameter.name)])) @parameter.list
