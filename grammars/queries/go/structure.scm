(function_declaration
  name: (identifier) @function.name
  parameters: (parameter_list) @parameters
  body: (block) @body) @function

(method_declaration
  receiver: (parameter_list (parameter_declaration
    type: [(type_identifier) @method.class (pointer_type (type_identifier) @method.class)]))
  name: (field_identifier) @method.name
  parameters: (parameter_list) @parameters
  body: (block) @body) @method

(type_declaration (type_spec
  name: (type_identifier) @class.name
  type: [(struct_type) (interface_type)] @body)) @class

(source_file (var_declaration (var_spec name: (identifier) @variable.name)) @variable)
(source_file (const_declaration (const_spec name: (identifier) @variable.name)) @variable)

(import_spec path: (interpreted_string_literal) @import.module) @import

; A function's own variables: its parameters and the names it binds
; (@local anywhere; kept only inside a function). Show Variable looks for a
; name from the cursor's scope outwards.
(short_var_declaration left: (expression_list (identifier) @local.name)) @local
(var_declaration (var_spec name: (identifier) @local.name)) @local
(parameter_declaration name: (identifier) @local.name) @local
