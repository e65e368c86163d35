(function_definition name: (word) @function.name body: (_) @body) @function

(program (variable_assignment name: (variable_name) @variable.name) @variable)
(program (declaration_command (variable_assignment name: (variable_name) @variable.name)) @variable)

(command
  name: (command_name (word) @_source)
  argument: (_) @import.module
  (#eq? @_source "source")) @import
(command
  name: (command_name (word) @_source)
  argument: (_) @import.module
  (#eq? @_source ".")) @import

; A function's own variables: its parameters and the names it binds
; (@local anywhere; kept only inside a function). Show Variable looks for a
; name from the cursor's scope outwards.
(variable_assignment name: (variable_name) @local.name) @local
