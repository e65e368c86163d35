(comment) @comment

(special_form ["if" "cond" "while" "and" "or"]) @decision
(special_form ["if" "cond" "while"]) @nesting

(list . (symbol) @call.name)

; Names one argument list binds (not its &optional and &rest): Validate
; reports a name given twice.
(function_definition parameters: (list (symbol) @parameter.name) @parameter.list
  (#not-eq? @parameter.name "&optional") (#not-eq? @parameter.name "&rest"))
(macro_definition parameters: (list (symbol) @parameter.name) @parameter.list
  (#not-eq? @parameter.name "&optional") (#not-eq? @parameter.name "&rest"))
