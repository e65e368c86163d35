(function_declaration
  name: (identifier) @function.name
  parameters: (formal_parameters) @parameters
  body: (statement_block) @body) @function
(generator_function_declaration
  name: (identifier) @function.name
  parameters: (formal_parameters) @parameters
  body: (statement_block) @body) @function
(lexical_declaration (variable_declarator
  name: (identifier) @function.name
  value: [(arrow_function parameters: (formal_parameters) @parameters body: (_) @body)
          (function_expression parameters: (formal_parameters) @parameters body: (_) @body)])) @function

(class_declaration name: (type_identifier) @class.name body: (class_body) @body) @class
(abstract_class_declaration name: (type_identifier) @class.name body: (class_body) @body) @class
(interface_declaration name: (type_identifier) @class.name body: (interface_body) @body) @class
(enum_declaration name: (identifier) @class.name body: (enum_body) @body) @class

(method_definition
  name: (_) @method.name
  parameters: (formal_parameters) @parameters
  body: (statement_block) @body) @method
(method_signature name: (_) @method.name parameters: (formal_parameters) @parameters) @method

(program (lexical_declaration (variable_declarator
  name: (identifier) @variable.name
  value: [(number) (string) (template_string) (object) (array) (true) (false) (null)
          (identifier) (member_expression) (call_expression) (new_expression)
          (binary_expression) (as_expression)])) @variable)
(class_body (public_field_definition name: (property_identifier) @variable.name) @variable)

(import_statement source: (string (string_fragment) @import.module)) @import

; A function's own variables: its parameters and the names it binds
; (@local anywhere; kept only inside a function). Show Variable looks for a
; name from the cursor's scope outwards.
(lexical_declaration (variable_declarator name: (identifier) @local.name
  value: [(number) (string) (template_string) (object) (array) (true) (false) (null)
          (identifier) (member_expression) (call_expression) (new_expression)
          (binary_expression) (unary_expression) (ternary_expression) (await_expression)
          (subscript_expression) (as_expression)])) @local
(lexical_declaration (variable_declarator name: (identifier) @local.name !value)) @local
(variable_declaration (variable_declarator name: (identifier) @local.name)) @local
(formal_parameters [(required_parameter pattern: (identifier) @local.name) @local
                    (optional_parameter pattern: (identifier) @local.name) @local])
