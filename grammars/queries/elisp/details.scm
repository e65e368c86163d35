(comment) @comment

(special_form ["if" "cond" "while" "and" "or"]) @decision
(special_form ["if" "cond" "while"]) @nesting

(list . (symbol) @call.name)
