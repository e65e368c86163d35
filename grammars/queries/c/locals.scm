; Names and scopes of C, in eddi's capture names (doc/refactoring.org has the
; list and what module/refactor/ does with each). The tree's root is the file
; scope. Struct, union and enum tags are a namespace of their own
; (@namespace.struct: the tag point is the name "struct point"); a
; non-static function or variable of file scope is one entity with the
; same-named ones of the other files (modules_c.c), static ones and types
; are the file's own (@linkage.internal).

; ------------------------------------------------------------------ scopes

; A function's scope holds its parameters; its name belongs outside.
(function_definition
  declarator: (function_declarator declarator: (identifier) @definition.function @scope.outer))
  @scope.function
(function_definition
  declarator: (pointer_declarator
    declarator: (function_declarator declarator: (identifier) @definition.function @scope.outer)))
  @scope.function
(function_definition
  declarator: (pointer_declarator declarator: (pointer_declarator
    declarator: (function_declarator declarator: (identifier) @definition.function @scope.outer))))
  @scope.function

(compound_statement) @scope.block
; A function's outermost block is the function's scope (its parameters').
(function_definition body: (compound_statement) @scope.body)
(for_statement) @scope.block

; The parameters of a prototype and of a function pointer have a scope of
; their own (they name nothing outside it).
(declaration declarator: (function_declarator parameters: (_) @scope.block))
(declaration declarator: (pointer_declarator
  declarator: (function_declarator parameters: (_) @scope.block)))
(declaration declarator: (pointer_declarator declarator: (pointer_declarator
  declarator: (function_declarator parameters: (_) @scope.block))))
(function_declarator declarator: (parenthesized_declarator) parameters: (_) @scope.block)

; A struct or union body holds its fields, as a class body its members.
(struct_specifier
  name: (type_identifier) @definition.class @namespace.struct
  body: (field_declaration_list) @scope.class)
(union_specifier
  name: (type_identifier) @definition.class @namespace.struct
  body: (field_declaration_list) @scope.class)
(enum_specifier
  name: (type_identifier) @definition.class @namespace.struct
  body: (enumerator_list))
; typedef struct { ... } name: the typedef name is the struct.
(type_definition
  type: (struct_specifier !name body: (field_declaration_list) @scope.class)
  declarator: (type_identifier) @definition.class)
(type_definition
  type: (union_specifier !name body: (field_declaration_list) @scope.class)
  declarator: (type_identifier) @definition.class)
; A tag declared inside a struct belongs to the file.
(field_declaration
  type: [(struct_specifier name: (type_identifier) @scope.outer)
         (union_specifier name: (type_identifier) @scope.outer)
         (enum_specifier name: (type_identifier) @scope.outer)])

; ------------------------------------------------------------------ definitions

; No linkage: static functions and variables, types, enumeration constants.
(function_definition (storage_class_specifier) @_static (#eq? @_static "static"))
  @linkage.internal
(declaration (storage_class_specifier) @_static (#eq? @_static "static")) @linkage.internal
(type_definition) @linkage.internal
(enumerator) @linkage.internal

(declaration declarator: [
  (identifier) @definition.variable
  (init_declarator declarator: (identifier) @definition.variable)
  (pointer_declarator declarator: (identifier) @definition.variable)
  (init_declarator declarator: (pointer_declarator declarator: (identifier) @definition.variable))
  (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @definition.variable))
  (init_declarator declarator: (pointer_declarator
    declarator: (pointer_declarator declarator: (identifier) @definition.variable)))
  (array_declarator declarator: (identifier) @definition.variable)
  (init_declarator declarator: (array_declarator declarator: (identifier) @definition.variable))
  (pointer_declarator declarator: (array_declarator declarator: (identifier) @definition.variable))
  (function_declarator declarator: (identifier) @definition.function)
  (pointer_declarator declarator: (function_declarator declarator: (identifier) @definition.function))
  (pointer_declarator declarator: (pointer_declarator
    declarator: (function_declarator declarator: (identifier) @definition.function)))
  (function_declarator declarator: (parenthesized_declarator
    (pointer_declarator declarator: (identifier) @definition.variable)))
  (init_declarator declarator: (function_declarator declarator: (parenthesized_declarator
    (pointer_declarator declarator: (identifier) @definition.variable))))
])

(parameter_declaration declarator: [
  (identifier) @definition.parameter
  (pointer_declarator declarator: (identifier) @definition.parameter)
  (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @definition.parameter))
  (array_declarator declarator: (identifier) @definition.parameter)
  (pointer_declarator declarator: (array_declarator declarator: (identifier) @definition.parameter))
  (function_declarator declarator: (parenthesized_declarator
    (pointer_declarator declarator: (identifier) @definition.parameter)))
])

(field_declaration declarator: [
  (field_identifier) @definition.variable
  (pointer_declarator declarator: (field_identifier) @definition.variable)
  (pointer_declarator declarator: (pointer_declarator declarator: (field_identifier) @definition.variable))
  (array_declarator declarator: (field_identifier) @definition.variable)
  (pointer_declarator declarator: (array_declarator declarator: (field_identifier) @definition.variable))
  (function_declarator declarator: (parenthesized_declarator
    (pointer_declarator declarator: (field_identifier) @definition.variable)))
])

(type_definition declarator: [
  (type_identifier) @definition.variable
  (pointer_declarator declarator: (type_identifier) @definition.variable)
  (function_declarator declarator: (parenthesized_declarator
    (pointer_declarator declarator: (type_identifier) @definition.variable)))
])

(enumerator name: (identifier) @definition.variable)

; Macros are not renamed; their bodies are text whose words may be any name.
(preproc_def name: (identifier) @definition.macro)
(preproc_function_def name: (identifier) @definition.macro)
(preproc_params (identifier) @skip)
(preproc_arg) @text

; Assignments write; they bind nothing.
(assignment_expression left: (_) @write)
(update_expression argument: (_) @write)

; ------------------------------------------------------------------ values

; A name declared with a struct type (directly or through a typedef) holds
; an instance of it; so does a call of a function returning one.
(declaration
  type: [(type_identifier) @annotate.type
         (struct_specifier name: (type_identifier) @annotate.type)
         (union_specifier name: (type_identifier) @annotate.type)]
  declarator: [
    (identifier) @annotate.target
    (init_declarator declarator: (identifier) @annotate.target)
    (pointer_declarator declarator: (identifier) @annotate.target)
    (init_declarator declarator: (pointer_declarator declarator: (identifier) @annotate.target))
  ])
(parameter_declaration
  type: [(type_identifier) @annotate.type
         (struct_specifier name: (type_identifier) @annotate.type)
         (union_specifier name: (type_identifier) @annotate.type)]
  declarator: [
    (identifier) @annotate.target
    (pointer_declarator declarator: (identifier) @annotate.target)
  ])
(field_declaration
  type: [(type_identifier) @annotate.type
         (struct_specifier name: (type_identifier) @annotate.type)
         (union_specifier name: (type_identifier) @annotate.type)]
  declarator: [
    (field_identifier) @annotate.target
    (pointer_declarator declarator: (field_identifier) @annotate.target)
  ])
(function_definition
  type: [(type_identifier) @returns.type
         (struct_specifier name: (type_identifier) @returns.type)
         (union_specifier name: (type_identifier) @returns.type)]
  declarator: [
    (function_declarator declarator: (identifier) @returns.function)
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @returns.function))
  ])
(declaration
  type: [(type_identifier) @returns.type
         (struct_specifier name: (type_identifier) @returns.type)
         (union_specifier name: (type_identifier) @returns.type)]
  declarator: [
    (function_declarator declarator: (identifier) @returns.function)
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @returns.function))
  ])
; A typedef of a struct names the struct.
(type_definition
  type: [(struct_specifier name: (type_identifier) @assign.value)
         (union_specifier name: (type_identifier) @assign.value)]
  declarator: [(type_identifier) @assign.target
               (pointer_declarator declarator: (type_identifier) @assign.target)])

(call_expression function: (_) @call.callee) @call
(return_statement (_) @return)
[(number_literal) (string_literal) (char_literal) (concatenated_string) (true) (false)] @literal
(null) @nothing

; ------------------------------------------------------------------ references

(identifier) @reference
(type_identifier) @reference
(struct_specifier name: (type_identifier) @namespace.struct)
(union_specifier name: (type_identifier) @namespace.struct)
(enum_specifier name: (type_identifier) @namespace.struct)

(field_expression argument: (_) @member.object field: (field_identifier) @member.name) @member

; { .x = 1 } in the initializer of a declared name: a field of its type;
; any other designator names a field of some type eddi does not follow.
(init_declarator
  declarator: (identifier) @member.object
  value: (initializer_list (initializer_pair
    designator: (field_designator (field_identifier) @member.name)))) @member
(field_designator (field_identifier) @member.unknown)

(string_literal (string_content) @string)

; The C++ guard (#ifdef __cplusplus / extern "C" { / #endif ... }) splits
; braces across conditionals: the #endif the parser then misses is no error.
(preproc_ifdef name: (identifier) @_guard (#eq? @_guard "__cplusplus")) @syntax.tolerated

; ------------------------------------------------------------------ includes

; #include "x.h": every name of x.h (and of what it includes) is seen here.
(preproc_include path: (string_literal (string_content) @import.path)) @import.all
