(class_declaration name: (identifier) @class.name body: (class_body) @body) @class
(interface_declaration name: (identifier) @class.name body: (interface_body) @body) @class
(enum_declaration name: (identifier) @class.name body: (enum_body) @body) @class
(record_declaration name: (identifier) @class.name body: (class_body) @body) @class

(method_declaration name: (identifier) @function.name parameters: (formal_parameters) @parameters) @function
(constructor_declaration
  name: (identifier) @function.name
  parameters: (formal_parameters) @parameters
  body: (constructor_body) @body) @function

(class_body (field_declaration
  declarator: (variable_declarator name: (identifier) @variable.name)) @variable)

(import_declaration (scoped_identifier) @import.module) @import

; A function's own variables: its parameters and the names it binds
; (@local anywhere; kept only inside a function). Show Variable looks for a
; name from the cursor's scope outwards.
(local_variable_declaration declarator: (variable_declarator name: (identifier) @local.name)) @local
(formal_parameter name: (identifier) @local.name) @local
