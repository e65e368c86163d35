(line_comment) @comment
(block_comment) @comment
(attribute_item) @decorator

[(if_expression) (match_arm) (while_expression) (for_expression) (loop_expression)
 (try_expression)] @decision
(binary_expression operator: ["&&" "||"]) @decision

[(if_expression) (match_expression) (while_expression) (for_expression)
 (loop_expression)] @nesting

(call_expression function: (identifier) @call.name)
(call_expression function: (field_expression field: (field_identifier) @call.name))
(call_expression function: (scoped_identifier name: (identifier) @call.name))

(use_declaration argument: (identifier) @import.name)
(use_declaration argument: (scoped_identifier name: (identifier) @import.name))
(use_as_clause alias: (identifier) @import.name)
(use_list (identifier) @import.name)

; Names one parameter list binds: Validate reports a name given twice.
(parameters (parameter pattern: [(identifier) @parameter.name
                                 (tuple_pattern (identifier) @parameter.name)])) @parameter.list
(closure_parameters (identifier) @parameter.name) @parameter.list
