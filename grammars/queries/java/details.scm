(line_comment) @comment
(block_comment) @comment
(marker_annotation) @decorator
(annotation) @decorator

[(if_statement) (for_statement) (enhanced_for_statement) (while_statement) (do_statement)
 (catch_clause) (ternary_expression) (switch_label)] @decision
(binary_expression operator: ["&&" "||"]) @decision

[(if_statement) (for_statement) (enhanced_for_statement) (while_statement) (do_statement)
 (switch_expression) (try_statement)] @nesting

(method_invocation name: (identifier) @call.name)
(object_creation_expression type: (type_identifier) @call.name)

(import_declaration (scoped_identifier name: (identifier) @import.name))

; Names one parameter list binds: Validate reports a name given twice.
(formal_parameters [(formal_parameter name: (identifier) @parameter.name)
                    (spread_parameter (variable_declarator name: (identifier) @parameter.name))]) @parameter.list
