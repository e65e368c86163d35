(decorator) @decorator
(comment) @comment

; Decision points: each adds one to a function's cyclomatic complexity.
[(if_statement) (elif_clause) (for_statement) (while_statement) (except_clause)
 (conditional_expression) (boolean_operator) (case_clause)
 (for_in_clause) (if_clause)] @decision

; Blocks that count toward nesting depth.
[(if_statement) (for_statement) (while_statement) (try_statement) (with_statement)
 (match_statement)] @nesting

(call function: (identifier) @call.name)
(call function: (attribute attribute: (identifier) @call.name))

; Names an import binds, for unused-import checks.
(import_statement name: (dotted_name . (identifier) @import.name))
(import_statement name: (aliased_import alias: (identifier) @import.name))
(import_from_statement name: (dotted_name . (identifier) @import.name))
(import_from_statement name: (aliased_import alias: (identifier) @import.name))

; Names one list binds: each parameter of a definition or lambda, each
; keyword of a call. Validate reports a name given twice in one list.
(parameters [(identifier) @parameter.name
             (default_parameter name: (identifier) @parameter.name)
             (typed_parameter (identifier) @parameter.name)
             (typed_parameter [(list_splat_pattern (identifier) @parameter.name)
                               (dictionary_splat_pattern (identifier) @parameter.name)])
             (typed_default_parameter name: (identifier) @parameter.name)
             (list_splat_pattern (identifier) @parameter.name)
             (dictionary_splat_pattern (identifier) @parameter.name)]) @parameter.list
(lambda_parameters [(identifier) @parameter.name
                    (default_parameter name: (identifier) @parameter.name)
                    (list_splat_pattern (identifier) @parameter.name)
                    (dictionary_splat_pattern (identifier) @parameter.name)]) @parameter.list
(argument_list (keyword_argument name: (identifier) @argument.name)) @argument.list
