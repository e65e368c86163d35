; A JSON document's top-level keys are its "variables".
(document (object (pair key: (string (string_content) @variable.name)) @variable))
