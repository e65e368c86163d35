; Elements eddi acts on, in eddi's capture names (see grammars/README.org).
(function_definition
  declarator: (function_declarator
    declarator: (identifier) @function.name
    parameters: (parameter_list) @parameters)
  body: (compound_statement) @body) @function

(function_definition
  declarator: (pointer_declarator
    declarator: (function_declarator
      declarator: (identifier) @function.name
      parameters: (parameter_list) @parameters))
  body: (compound_statement) @body) @function

(struct_specifier name: (type_identifier) @class.name body: (field_declaration_list) @body) @class
(union_specifier name: (type_identifier) @class.name body: (field_declaration_list) @body) @class
(enum_specifier name: (type_identifier) @class.name body: (enumerator_list) @body) @class

(translation_unit (declaration
  declarator: (init_declarator declarator: (identifier) @variable.name)) @variable)
(translation_unit (declaration declarator: (identifier) @variable.name) @variable)

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
                                    (array_declarator declarator: (identifier) @local.name)]) @local
