(function_definition name: (symbol) @function.name parameters: (_) @parameters) @function
(macro_definition name: (symbol) @function.name parameters: (_) @parameters) @function

(source_file (special_form ["defvar" "defconst"] . (symbol) @variable.name) @variable)

(source_file (list . (symbol) @_require . (quote (symbol) @import.module)
  (#eq? @_require "require")) @import)

; A function's own variables: its parameters and the names it binds
; (@local anywhere; kept only inside a function). Show Variable looks for a
; name from the cursor's scope outwards.
(function_definition parameters: (list (symbol) @local.name @local)
  (#not-eq? @local.name "&optional") (#not-eq? @local.name "&rest"))
