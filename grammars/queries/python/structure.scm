; Elements eddi acts on, in eddi's capture names (see grammars/README.org).
(function_definition
  name: (identifier) @function.name
  parameters: (parameters) @parameters
  body: (block) @body) @function

(class_definition
  name: (identifier) @class.name
  body: (block) @body) @class

(module (expression_statement
  (assignment left: (identifier) @variable.name)) @variable)

(class_definition body: (block (expression_statement
  (assignment left: (identifier) @variable.name)) @variable))

(import_statement name: (dotted_name) @import.module) @import
(import_statement name: (aliased_import name: (dotted_name) @import.module)) @import
(import_from_statement module_name: (_) @import.module) @import
(future_import_statement) @import

; A function's own variables: its parameters and the names it binds
; (@local anywhere; kept only inside a function). Show Variable looks for a
; name from the cursor's scope outwards.
(expression_statement (assignment left: (identifier) @local.name)) @local
(parameters [(identifier) @local.name @local
             (default_parameter name: (identifier) @local.name) @local
             (typed_parameter (identifier) @local.name) @local
             (typed_default_parameter name: (identifier) @local.name) @local])
