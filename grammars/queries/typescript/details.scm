(comment) @comment
(decorator) @decorator

[(if_statement) (for_statement) (for_in_statement) (while_statement) (do_statement)
 (switch_case) (catch_clause) (ternary_expression)] @decision
(binary_expression operator: ["&&" "||" "??"]) @decision

[(if_statement) (for_statement) (for_in_statement) (while_statement) (do_statement)
 (switch_statement) (try_statement)] @nesting

(call_expression function: (identifier) @call.name)
(call_expression function: (member_expression property: (property_identifier) @call.name))
(new_expression constructor: (identifier) @call.name)

(import_clause (identifier) @import.name)
(import_specifier name: (identifier) @import.name)
(namespace_import (identifier) @import.name)
(variable_declarator
  name: (identifier) @import.name
  value: (call_expression function: (identifier) @_require) (#eq? @_require "require"))

; Names one parameter list binds: Validate reports a name given twice.
(formal_parameters [(required_parameter pattern: (identifier) @parameter.name)
                    (required_parameter pattern: (rest_pattern (identifier) @parameter.name))
                    (optional_parameter pattern: (identifier) @parameter.name)]) @parameter.list
