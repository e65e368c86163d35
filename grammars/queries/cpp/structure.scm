(function_definition
  declarator: (function_declarator
    declarator: (_) @function.name
    parameters: (parameter_list) @parameters)
  body: (_) @body) @function

(function_definition
  declarator: (_ declarator: (function_declarator
    declarator: (_) @function.name
    parameters: (parameter_list) @parameters))
  body: (_) @body) @function

(class_specifier name: (type_identifier) @class.name body: (field_declaration_list) @body) @class
(struct_specifier name: (type_identifier) @class.name body: (field_declaration_list) @body) @class
(enum_specifier name: (type_identifier) @class.name body: (enumerator_list) @body) @class

(field_declaration_list (field_declaration
  declarator: (field_identifier) @variable.name) @variable)
(translation_unit (declaration
  declarator: (init_declarator declarator: (identifier) @variable.name)) @variable)

(preproc_include path: (_) @import.module) @import

; A function's own variables: its parameters and the names it binds
; (@local anywhere; kept only inside a function). Show Variable looks for a
; name from the cursor's scope outwards.
(declaration declarator: [(identifier) @local.name
                          (init_declarator declarator: (identifier) @local.name)
                          (init_declarator declarator: (pointer_declarator
                            declarator: (identifier) @local.name))]) @local
(parameter_declaration declarator: [(identifier) @local.name
                                    (pointer_declarator declarator: (identifier) @local.name)
                                    (reference_declarator (identifier) @local.name)]) @local
(optional_parameter_declaration declarator: (identifier) @local.name) @local
