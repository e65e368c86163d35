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
