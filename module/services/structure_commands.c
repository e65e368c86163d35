/* structure_commands.c - the command table of the structure commands
 * (Modify, Analyze, Validate, Comment, Format); their handlers are declared
 * in structure.h, one file each. */
#include "services/structure.h"

static const CommandSpec structure_commands[] = {
    {"Modify",
     "Modify <Function|Method|Class|Variable> <name> <Rename <new>|AddParam \"p\"|RemoveParam "
     "<p>|ChangeSignature \"(params)\"|AddDecorator \"@d\"|SetVisibility "
     "<public|private|protected>> [Leave] [Unchecked]",
     "change an element in this file (refused when other files would feel it)", CMD_FILE,
     eddi_run_modify},
    {"Analyze",
     "Analyze <Function n|Class n|Method C.m|File [f]> [Structure|Dependencies|Complexity|Issues]",
     "outline, imports, complexity, issues", CMD_SESSION, eddi_run_analyze},
    {"Validate", "Validate [Function n|Class n|Method C.m|File]",
     "syntax errors, and a language server's diagnostics", CMD_FILE,
     eddi_run_validate},
    {"Comment",
     "Comment <Function n|Method C.m|Class n|Line n|Current> \"text\" [Line|Block|Doc] [Append]",
     "add a comment, or replace (Append: add to) an element's doc comment", CMD_FILE, eddi_run_comment},
    {"Format", "Format [File]", "run the language's formatter", CMD_FILE, eddi_run_format},
};
COMMAND_GROUP(eddi_structure_commands, structure_commands);

