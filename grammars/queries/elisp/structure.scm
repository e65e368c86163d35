(function_definition name: (symbol) @function.name parameters: (_) @parameters) @function
(macro_definition name: (symbol) @function.name parameters: (_) @parameters) @function

(source_file (special_form ["defvar" "defconst"] . (symbol) @variable.name) @variable)

(source_file (list . (symbol) @_require . (quote (symbol) @import.module)
  (#eq? @_require "require")) @import)
