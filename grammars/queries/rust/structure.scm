(function_item
  name: (identifier) @function.name
  parameters: (parameters) @parameters
  body: (block) @body) @function
(function_signature_item name: (identifier) @function.name parameters: (parameters) @parameters) @function

(struct_item name: (type_identifier) @class.name) @class
(enum_item name: (type_identifier) @class.name body: (enum_variant_list) @body) @class
(trait_item name: (type_identifier) @class.name body: (declaration_list) @body) @class
(impl_item type: (type_identifier) @impl.name body: (declaration_list) @body) @impl
(impl_item type: (generic_type type: (type_identifier) @impl.name) body: (declaration_list) @body) @impl

(source_file (const_item name: (identifier) @variable.name) @variable)
(source_file (static_item name: (identifier) @variable.name) @variable)

(use_declaration argument: (_) @import.module) @import

; A function's own variables: its parameters and the names it binds
; (@local anywhere; kept only inside a function). Show Variable looks for a
; name from the cursor's scope outwards.
(let_declaration pattern: (identifier) @local.name) @local
(parameter pattern: (identifier) @local.name) @local
