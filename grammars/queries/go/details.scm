(comment) @comment

[(if_statement) (for_statement) (expression_case) (type_case)
 (communication_case)] @decision
(binary_expression operator: ["&&" "||"]) @decision

[(if_statement) (for_statement) (expression_switch_statement) (type_switch_statement)
 (select_statement)] @nesting

(call_expression function: (identifier) @call.name)
(call_expression function: (selector_expression field: (field_identifier) @call.name))

; Names one parameter list binds: Validate reports a name given twice.
(parameter_list [(parameter_declaration name: (identifier) @parameter.name)
                 (variadic_parameter_declaration name: (identifier) @parameter.name)]) @parameter.list
