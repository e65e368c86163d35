; Names and scopes of Python, in eddi's capture names (doc/refactoring.org has
; the list and what module/refactor/ does with each). The tree's root is the
; module scope.

; ------------------------------------------------------------------ scopes

; A class body is a scope whose names are members: functions nested in it do
; not see them. The class's name and bases belong to the enclosing scope.
(class_definition
  name: (identifier) @definition.class
  body: (block) @scope.class)

(class_definition
  name: (identifier) @definition.class
  superclasses: (argument_list [(identifier) (attribute)] @class.base))
(class_definition
  name: (identifier) @definition.class
  superclasses: (argument_list (subscript value: (_) @class.base)))

; A function's scope holds its parameters; its name, defaults, annotations
; and return type are evaluated outside it.
(function_definition
  name: (identifier) @definition.function @scope.outer) @scope.function
(function_definition return_type: (_) @scope.outer)
(default_parameter value: (_) @scope.outer)
(typed_parameter type: (_) @scope.outer)
(typed_default_parameter type: (_) @scope.outer)
(typed_default_parameter value: (_) @scope.outer)

(lambda) @scope.lambda

; The first iterable of a comprehension is evaluated in the enclosing scope.
[(list_comprehension) (set_comprehension) (dictionary_comprehension)
 (generator_expression)] @scope.comprehension
(list_comprehension body: (_) . (for_in_clause right: (_) @scope.outer))
(set_comprehension body: (_) . (for_in_clause right: (_) @scope.outer))
(dictionary_comprehension body: (_) . (for_in_clause right: (_) @scope.outer))
(generator_expression body: (_) . (for_in_clause right: (_) @scope.outer))

; ------------------------------------------------------------------ parameters

(parameters (identifier) @definition.parameter)
(lambda_parameters (identifier) @definition.parameter)
(default_parameter name: (identifier) @definition.parameter)
(typed_parameter . (identifier) @definition.parameter)
(typed_default_parameter name: (identifier) @definition.parameter)
(parameters (list_splat_pattern (identifier) @definition.parameter))
(parameters (dictionary_splat_pattern (identifier) @definition.parameter))
(lambda_parameters (list_splat_pattern (identifier) @definition.parameter))
(lambda_parameters (dictionary_splat_pattern (identifier) @definition.parameter))
(typed_parameter (list_splat_pattern (identifier) @definition.parameter))
(typed_parameter (dictionary_splat_pattern (identifier) @definition.parameter))

(typed_parameter . (identifier) @annotate.target type: (type (_) @annotate.type))
(typed_default_parameter name: (identifier) @annotate.target type: (type (_) @annotate.type))
; A collection annotation (list[Shape], Sequence[Shape]) gives the type of
; the elements a loop over the variable gets.
((typed_parameter . (identifier) @annotate.target
   type: (type (generic_type (identifier) @_collection
                             (type_parameter . (type (_) @annotate.elements) .))))
 (#any-of? @_collection "list" "List" "set" "Set" "frozenset" "FrozenSet" "Sequence"
  "MutableSequence" "Iterable" "Iterator" "Collection" "AbstractSet" "MutableSet" "deque" "Deque"))
((typed_default_parameter name: (identifier) @annotate.target
   type: (type (generic_type (identifier) @_collection
                             (type_parameter . (type (_) @annotate.elements) .))))
 (#any-of? @_collection "list" "List" "set" "Set" "frozenset" "FrozenSet" "Sequence"
  "MutableSequence" "Iterable" "Iterator" "Collection" "AbstractSet" "MutableSet" "deque" "Deque"))

; The first parameter of a method holds the instance (self), of a
; classmethod the class (cls); a staticmethod has neither.
(class_definition body: (block (function_definition
  parameters: (parameters . [(identifier) @definition.self
                             (typed_parameter . (identifier) @definition.self)]))))
(class_definition body: (block (decorated_definition definition: (function_definition
  parameters: (parameters . [(identifier) @definition.self
                             (typed_parameter . (identifier) @definition.self)])))))
(decorated_definition
  (decorator (identifier) @_decorator (#eq? @_decorator "classmethod"))
  definition: (function_definition parameters: (parameters . (identifier) @definition.cls)))
(decorated_definition
  (decorator (identifier) @_decorator (#eq? @_decorator "staticmethod"))
  definition: (function_definition parameters: (parameters . (identifier) @definition.plain)))

; ------------------------------------------------------------------ bindings

; Targets: the names in them are bound, through destructuring patterns.
(assignment left: (_) @definition.target)
(augmented_assignment left: (_) @definition.target)
(for_statement left: (_) @definition.target)
(for_in_clause left: (_) @definition.target)
(with_item value: (as_pattern alias: (as_pattern_target) @definition.target))
(except_clause value: (as_pattern alias: (as_pattern_target) @definition.target))
(except_clause (as_pattern alias: (as_pattern_target) @definition.target))
[(pattern_list) (tuple_pattern) (list_pattern) (list_splat_pattern) (tuple) (list)
 (parenthesized_expression) (as_pattern_target) (list_splat)] @pattern

; An assignment expression binds in the enclosing function, even inside a
; comprehension.
(named_expression name: (identifier) @definition.hoisted)

; Capture patterns of match statements.
(case_pattern (dotted_name . (identifier) @definition.target .))
(keyword_pattern (dotted_name . (identifier) @definition.target .))
(splat_pattern (identifier) @definition.target)
(as_pattern (case_pattern) (identifier) @definition.target)
(keyword_pattern . (identifier) @member.unknown)
(case_pattern (dotted_name (identifier) (identifier) @member.unknown))
(class_pattern (dotted_name (identifier) (identifier) @member.unknown))

(global_statement (identifier) @declaration.global)
(nonlocal_statement (identifier) @declaration.nonlocal)

; ------------------------------------------------------------------ values

(assignment left: (_) @assign.target right: (_) @assign.value)
(assignment left: (_) @annotate.target type: (type (_) @annotate.type))
((assignment left: (_) @annotate.target
   type: (type (generic_type (identifier) @_collection
                             (type_parameter . (type (_) @annotate.elements) .))))
 (#any-of? @_collection "list" "List" "set" "Set" "frozenset" "FrozenSet" "Sequence"
  "MutableSequence" "Iterable" "Iterator" "Collection" "AbstractSet" "MutableSet" "deque" "Deque"))
; if isinstance(x, T): inside the block x holds a T.
((if_statement
   condition: (call function: (identifier) @_isinstance
                    arguments: (argument_list . (identifier) @narrow.name
                                              . [(identifier) (attribute)] @narrow.type .))
   consequence: (block) @narrow.scope)
 (#eq? @_isinstance "isinstance"))
((elif_clause
   condition: (call function: (identifier) @_isinstance
                    arguments: (argument_list . (identifier) @narrow.name
                                              . [(identifier) (attribute)] @narrow.type .))
   consequence: (block) @narrow.scope)
 (#eq? @_isinstance "isinstance"))
; for s in shapes, [s for s in shapes]: s is an element of shapes.
(for_statement left: (identifier) @iterate.target right: (_) @iterate.source)
(for_in_clause left: (identifier) @iterate.target right: (_) @iterate.source)
(call function: (_) @call.callee) @call
; None: no value at all, so x = None beside x = Item() leaves x an Item for
; its attributes (an attribute of None fails whatever is renamed).
(none) @nothing

; What a call of a function gives: its return annotation, else what all its
; returns give. A generator or a coroutine gives neither.
(function_definition name: (identifier) @returns.function return_type: (type (_) @returns.type))
((function_definition name: (identifier) @returns.function
   return_type: (type (generic_type (identifier) @_collection
                                    (type_parameter . (type (_) @returns.elements) .))))
 (#any-of? @_collection "list" "List" "set" "Set" "frozenset" "FrozenSet" "Sequence"
  "MutableSequence" "Iterable" "Iterator" "Collection" "AbstractSet" "MutableSet" "deque" "Deque"))
(return_statement (_) @return)
(yield) @yield
(function_definition "async" name: (identifier) @async)

; A decorator may turn a function into anything (a property, a wrapper with
; other parameters); language.conf's plain_decorators keep it as it is.
(decorated_definition (decorator (_) @decorator)
  definition: (function_definition name: (identifier) @decorated))
; super() in a method: the members of the enclosing class's bases.
(call function: (identifier) @_super (#eq? @_super "super")) @super
[(string) (concatenated_string) (integer) (float) (true) (false) (list)
 (dictionary) (set) (tuple) (list_comprehension) (set_comprehension)
 (dictionary_comprehension) (generator_expression)] @literal

; ------------------------------------------------------------------ references

(identifier) @reference

(attribute object: (_) @member.object attribute: (identifier) @member.name) @member

(keyword_argument name: (identifier) @keyword)
(call function: (_) @keyword.call
  arguments: (argument_list (keyword_argument name: (identifier) @keyword)))

(string (string_content) @string)

; An annotation's strings are types written as text (forward references:
; "Node", Optional["Node"]); so are cast()'s first argument and a
; TypeVar's bound. The strings of Literal[...] are values, and Annotated's
; are metadata.
(type) @annotation
(generic_type (identifier) @_values (#any-of? @_values "Literal" "Annotated")
  (type_parameter) @annotation.values)
(subscript value: [(identifier) (attribute attribute: (identifier))] @_values
  (#any-of? @_values "Literal" "Annotated" "typing.Literal" "typing.Annotated"
            "typing_extensions.Literal" "typing_extensions.Annotated")
  subscript: (_) @annotation.values)
(call function: [(identifier) (attribute attribute: (identifier))] @_cast
  (#any-of? @_cast "cast" "typing.cast")
  arguments: (argument_list . (string (string_content) @forward)))
(call function: [(identifier) (attribute attribute: (identifier))] @_typevar
  (#any-of? @_typevar "TypeVar" "typing.TypeVar")
  arguments: (argument_list (keyword_argument name: (identifier) @_bound (#eq? @_bound "bound")
                                              value: (string (string_content) @forward))))

; Members looked up by a computed name: getattr(self, name) and its kin.
(call function: (identifier) @_f (#eq? @_f "getattr")
  arguments: (argument_list . (_) @dynamic . (_) @dynamic.name))
(call function: (identifier) @_f (#eq? @_f "setattr")
  arguments: (argument_list . (_) @dynamic . (_) @dynamic.name))
(call function: (identifier) @_f (#eq? @_f "hasattr")
  arguments: (argument_list . (_) @dynamic . (_) @dynamic.name))
(call function: (identifier) @_f (#eq? @_f "delattr")
  arguments: (argument_list . (_) @dynamic . (_) @dynamic.name))

; Members read all at once by their names (vars(obj), obj.__dict__,
; dataclasses.asdict, attrs.asdict, pickle): to the refactorings that move
; fields and to a field's rename, a read of every field (moving or renaming
; one changes what they see).
(call function: (identifier) @reflected.by (#any-of? @reflected.by "vars" "asdict" "astuple")
  arguments: (argument_list . (_) @reflected))
(call function: (attribute object: (identifier) @_m
                           (#any-of? @_m "dataclasses" "pickle" "attr" "attrs")
                           attribute: (identifier) @reflected.by)
  arguments: (argument_list . (_) @reflected))
(attribute object: (_) @reflected attribute: (identifier) @reflected.by (#eq? @reflected.by "__dict__"))

; The names a module exports.
(module (expression_statement (assignment
  left: (identifier) @_all (#eq? @_all "__all__")
  right: [(list (string (string_content) @export)) (tuple (string (string_content) @export))])))
(module (expression_statement (augmented_assignment
  left: (identifier) @_all (#eq? @_all "__all__")
  right: [(list (string (string_content) @export)) (tuple (string (string_content) @export))])))

; ------------------------------------------------------------------ imports

(import_statement name: (dotted_name) @import.module)
(import_statement name: (aliased_import
  name: (dotted_name) @import.module alias: (identifier) @import.alias))

(import_from_statement module_name: (dotted_name) @import.from
  name: (dotted_name) @import.name)
(import_from_statement module_name: (dotted_name) @import.from
  name: (aliased_import name: (dotted_name) @import.name alias: (identifier) @import.alias))
(import_from_statement module_name: (dotted_name) @import.from
  (wildcard_import) @import.star)

(import_from_statement
  module_name: (relative_import (import_prefix) @import.dots (dotted_name)? @import.from)
  name: (dotted_name) @import.name)
(import_from_statement
  module_name: (relative_import (import_prefix) @import.dots (dotted_name)? @import.from)
  name: (aliased_import name: (dotted_name) @import.name alias: (identifier) @import.alias))
(import_from_statement
  module_name: (relative_import (import_prefix) @import.dots (dotted_name)? @import.from)
  (wildcard_import) @import.star)

; "from __future__ import x" names a compiler feature, no symbol.
(future_import_statement (dotted_name (identifier) @skip))
(future_import_statement (aliased_import (dotted_name (identifier) @skip)))
