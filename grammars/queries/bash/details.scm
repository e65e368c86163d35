(comment) @comment

[(if_statement) (elif_clause) (for_statement) (c_style_for_statement) (while_statement)
 (case_item)] @decision

[(if_statement) (for_statement) (c_style_for_statement) (while_statement)
 (case_statement)] @nesting

(command name: (command_name (word) @call.name))
