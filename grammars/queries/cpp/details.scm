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

; Names one parameter list binds: Validate reports a name given twice.
(parameter_list [(parameter_declaration
                   declarator: [(identifier) @parameter.name
                                (pointer_declarator declarator: (identifier) @parameter.name)
                                (reference_declarator (identifier) @parameter.name)
                                (array_declarator declarator: (identifier) @parameter.name)])
                 (optional_parameter_declaration
                   declarator: [(identifier) @parameter.name
                                (pointer_declarator declarator: (identifier) @parameter.name)
                                (reference_declarator (identifier) @parameter.name)])]) @parameter.list
