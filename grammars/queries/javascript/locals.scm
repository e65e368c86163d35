; Names and scopes of JavaScript, in eddi's capture names (doc/refactoring.org
; has the list and what module/refactor/ does with each). The tree's root is
; the module scope. TypeScript's locals.scm starts with a copy of this file.

; ------------------------------------------------------------------ scopes

; A class body is a scope whose names are members: methods reach them
; through this, never by name. The class's name and bases belong outside.
(class_declaration
  name: (identifier) @definition.class
  body: (class_body) @scope.class)
(class
  name: (identifier) @definition.class
  body: (class_body) @scope.class)
(class_declaration
  name: (identifier) @definition.class
  (class_heritage [(identifier) (member_expression)] @class.base))
(class
  name: (identifier) @definition.class
  (class_heritage [(identifier) (member_expression)] @class.base))

; A function's scope holds its parameters; a declaration's name belongs to
; the scope around it, a function expression's name to the function itself.
(function_declaration
  name: (identifier) @definition.function @scope.outer) @scope.function
(generator_function_declaration
  name: (identifier) @definition.function @scope.outer) @scope.function
(function_expression
  name: (identifier) @definition.function) @scope.function
(function_expression) @scope.function
(generator_function) @scope.function
(method_definition
  name: [(property_identifier) (private_property_identifier)] @definition.function @scope.outer)
  @scope.function
(arrow_function) @scope.lambda
; A function bound to a const or var is that name's: its calls give what it
; returns (an arrow function's expression body too).
(variable_declarator name: (identifier) @definition.function value: (arrow_function) @scope.lambda)
(variable_declarator name: (identifier) @definition.function value: (function_expression) @scope.function)
(arrow_function body: [(call_expression) (new_expression) (identifier) (member_expression) (this)] @return)

(statement_block) @scope.block
; A function's body is the function's scope (its var, let and functions).
(function_declaration body: (statement_block) @scope.body)
(generator_function_declaration body: (statement_block) @scope.body)
(function_expression body: (statement_block) @scope.body)
(generator_function body: (statement_block) @scope.body)
(method_definition body: (statement_block) @scope.body)
(arrow_function body: (statement_block) @scope.body)
(for_statement) @scope.block
(for_in_statement) @scope.block
(catch_clause) @scope.block
(switch_body) @scope.block
(class_static_block) @scope.block

; The body of a class expression without a name holds its members too.
(class_body) @scope.class

; Class fields are members.
(field_definition
  property: [(property_identifier) (private_property_identifier)] @definition.variable)

; ------------------------------------------------------------------ parameters

(formal_parameters (identifier) @definition.parameter)
(formal_parameters (assignment_pattern left: (identifier) @definition.parameter))
(formal_parameters (rest_pattern (identifier) @definition.parameter))
(formal_parameters [(object_pattern) (array_pattern)] @definition.target)
(formal_parameters (assignment_pattern left: [(object_pattern) (array_pattern)] @definition.target))
(arrow_function parameter: (identifier) @definition.parameter)
(catch_clause parameter: (_) @definition.target)

; ------------------------------------------------------------------ bindings

; let and const bind in their block; var in the function around it.
(lexical_declaration (variable_declarator name: (_) @definition.target))
(variable_declaration (variable_declarator name: (_) @definition.hoisted))
(for_in_statement kind: ["let" "const"] left: (_) @definition.target)
(for_in_statement kind: "var" left: (_) @definition.hoisted)
(for_in_statement !kind left: (_) @write)

; An assignment binds nothing: it writes the name it finds.
(assignment_expression left: (_) @write)
(augmented_assignment_expression left: (_) @write)
(update_expression argument: (_) @write)

; Destructuring: the names in patterns bind; a shorthand { a } is a key of
; the destructured value too, a key: name pair binds the name only.
[(object_pattern) (array_pattern) (pair_pattern) (rest_pattern) (assignment_pattern)
 (object_assignment_pattern)] @pattern
(pair_pattern key: (property_identifier) @member.unknown)
(shorthand_property_identifier_pattern) @reference @keyed
; A default is read where it stands (a parameter's sees the ones before).
(assignment_pattern right: (_) @pattern.default)
(object_assignment_pattern right: (_) @pattern.default)

; ------------------------------------------------------------------ values

(variable_declarator name: (identifier) @assign.target value: (_) @assign.value)
(assignment_expression left: (identifier) @assign.target right: (_) @assign.value)
(assignment_expression
  left: (member_expression property: (property_identifier)) @assign.target
  right: (_) @assign.value)
(field_definition property: (property_identifier) @assign.target value: (_) @assign.value)
(new_expression constructor: (_) @call.callee) @call
(call_expression function: (_) @call.callee) @call
(return_statement (_) @return)
(yield_expression) @yield
(function_declaration "async" name: (identifier) @async)
(method_definition "async" name: (property_identifier) @async)
(method_definition "*" name: (property_identifier) @async)
[(null) (undefined)] @nothing
[(string) (template_string) (number) (true) (false) (array) (regex)] @literal

; this: the instance of the class whose method holds it (arrow functions
; have none of their own); super: the bases of that class.
(this) @self
(super) @super

; ------------------------------------------------------------------ references

(identifier) @reference
(shorthand_property_identifier) @reference @keyed

(member_expression
  object: (_) @member.object
  property: [(property_identifier) (private_property_identifier)] @member.name) @member

; Keys of an object literal: names of some value eddi does not follow.
(pair key: (property_identifier) @member.unknown)
(object (method_definition name: (property_identifier) @member.unknown))

(string (string_fragment) @string)
(template_string (string_fragment) @string)

; Members looked up by a computed name: obj[name].
(subscript_expression object: (_) @dynamic index: (_) @dynamic.name)

; Members read all at once by their names (JSON.stringify(obj), Object.keys
; and its kin, Object.assign's sources, structuredClone, {...obj}): to the
; refactorings that move fields, a read of every field.
(call_expression
  function: (member_expression object: (identifier) @_o (#eq? @_o "JSON")
                               property: (property_identifier) @reflected.by (#eq? @reflected.by "stringify"))
  arguments: (arguments . (_) @reflected))
(call_expression
  function: (member_expression object: (identifier) @_o (#eq? @_o "Object")
                               property: (property_identifier) @reflected.by
                               (#any-of? @reflected.by "keys" "values" "entries" "getOwnPropertyNames"))
  arguments: (arguments . (_) @reflected))
(call_expression
  function: (member_expression object: (identifier) @_o (#eq? @_o "Object")
                               property: (property_identifier) @reflected.by (#eq? @reflected.by "assign"))
  arguments: (arguments . (_) (_) @reflected))
(call_expression function: (identifier) @reflected.by (#eq? @reflected.by "structuredClone")
  arguments: (arguments . (_) @reflected))
(object (spread_element (_) @reflected) @reflected.by)

; ------------------------------------------------------------------ imports

; import x from "./m", import * as m from "./m", import { a, b as c } from "./m"
(import_statement
  (import_clause (identifier) @import.default)
  source: (string (string_fragment) @import.path))
(import_statement
  (import_clause (namespace_import (identifier) @import.alias))
  source: (string (string_fragment) @import.path))
(import_statement
  (import_clause (named_imports (import_specifier name: (identifier) @import.name !alias)))
  source: (string (string_fragment) @import.path))
(import_statement
  (import_clause (named_imports (import_specifier
    name: (identifier) @import.name alias: (identifier) @import.alias)))
  source: (string (string_fragment) @import.path))

; Re-exports bind names of this module: export { a, b as c } from "./m",
; export * from "./m" (exactly the names of m), export * as ns from "./m".
(export_statement
  (export_clause (export_specifier name: (identifier) @import.name !alias))
  source: (string (string_fragment) @import.path))
(export_statement
  (export_clause (export_specifier name: (identifier) @import.name alias: (identifier) @import.alias))
  source: (string (string_fragment) @import.path))
(export_statement "*" source: (string (string_fragment) @import.path)) @import.all
(export_statement (namespace_export (identifier) @import.alias)
  source: (string (string_fragment) @import.path))

; require("./m") whole, or destructured: const { a, b: c } = require("./m").
(variable_declarator
  name: (identifier) @import.default
  value: (call_expression function: (identifier) @_require (#eq? @_require "require")
    arguments: (arguments . (string (string_fragment) @import.path) .)))
(variable_declarator
  name: (object_pattern (shorthand_property_identifier_pattern) @import.name)
  value: (call_expression function: (identifier) @_require (#eq? @_require "require")
    arguments: (arguments . (string (string_fragment) @import.path) .)))
(variable_declarator
  name: (object_pattern (pair_pattern key: (property_identifier) @import.name
                                      value: (identifier) @import.alias))
  value: (call_expression function: (identifier) @_require (#eq? @_require "require")
    arguments: (arguments . (string (string_fragment) @import.path) .)))

; ------------------------------------------------------------------ exports

; export { a as b }: b is a name of the module, for a; export { a } names a.
(export_statement !source
  (export_clause (export_specifier name: (identifier) @assign.value
                                   alias: (identifier) @definition.export @assign.target)))
(export_statement !source
  (export_clause (export_specifier name: (identifier) @export.default
                                   alias: (identifier) @_default (#eq? @_default "default"))))

; export default function f() {} / class C {} / an expression.
(export_statement "default" declaration: (function_declaration name: (identifier) @export.default))
(export_statement "default" declaration: (class_declaration name: (identifier) @export.default))
(export_statement "default" value: (_) @export.default)

; CommonJS: module.exports = { Store, open } names the module's own names;
; a pair's key is a name of the module for its value; module.exports = X
; makes X what require() gives; exports.x = ... defines x.
(assignment_expression
  left: (member_expression object: (identifier) @_module (#eq? @_module "module")
                           property: (property_identifier) @_exports (#eq? @_exports "exports"))
  right: (object (shorthand_property_identifier) @export))
(assignment_expression
  left: (member_expression object: (identifier) @_module (#eq? @_module "module")
                           property: (property_identifier) @_exports (#eq? @_exports "exports"))
  right: (object (pair key: (property_identifier) @definition.export @assign.target
                       value: (_) @assign.value (#not-eq? @definition.export @assign.value))))
(assignment_expression
  left: (member_expression object: (identifier) @_module (#eq? @_module "module")
                           property: (property_identifier) @_exports (#eq? @_exports "exports"))
  right: (object (pair key: (property_identifier) @export
                       value: (identifier) @_value (#eq? @export @_value))))
(assignment_expression
  left: (member_expression object: (identifier) @_module (#eq? @_module "module")
                           property: (property_identifier) @_exports (#eq? @_exports "exports"))
  right: [(identifier) (class) (function_expression) (arrow_function) (call_expression)
          (new_expression) (member_expression)] @export.default)
; A key or an exports.x of the same name as its value is that name itself.
(assignment_expression
  left: (member_expression
    object: (identifier) @_exports (#eq? @_exports "exports")
    property: (property_identifier) @definition.export)
  right: (_) @_value (#not-eq? @definition.export @_value))
(assignment_expression
  left: (member_expression
    object: (identifier) @_exports (#eq? @_exports "exports")
    property: (property_identifier) @export)
  right: (identifier) @_value (#eq? @export @_value))
(assignment_expression
  left: (member_expression
    object: (member_expression object: (identifier) @_module (#eq? @_module "module")
                               property: (property_identifier) @_exports (#eq? @_exports "exports"))
    property: (property_identifier) @definition.export)
  right: (_) @_value (#not-eq? @definition.export @_value))
(assignment_expression
  left: (member_expression
    object: (member_expression object: (identifier) @_module (#eq? @_module "module")
                               property: (property_identifier) @_exports (#eq? @_exports "exports"))
    property: (property_identifier) @export)
  right: (identifier) @_value (#eq? @export @_value))

; if (x instanceof T) { ... }: inside the block x holds a T.
(if_statement
  condition: (parenthesized_expression
               (binary_expression left: (identifier) @narrow.name "instanceof"
                                  right: [(identifier) (member_expression)] @narrow.type))
  consequence: (statement_block) @narrow.scope)
