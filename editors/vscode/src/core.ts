// core.ts - what the extension does, without VS Code: find eddi-server,
// speak MCP to it over stdio, and turn a preview's unified diff into the
// new texts of the files it changes. extension.ts adds the editor around
// it; the tests run this file under node against a real eddi-server.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";

export const SERVER_PROGRAM = "eddi-server";

/** Thrown with a message for the person: what is wrong and what to do. */
export class EddiError extends Error {}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The eddi-server to run: the setting when it is given (an absolute path to
 * a program), else the first eddi-server on PATH. An IDE's PATH is often
 * not the terminal's, so a setting is never guessed at; undefined when
 * there is neither.
 */
export function findServer(setting: string | undefined, pathEnv: string | undefined): string | undefined {
  if (setting && setting.trim() !== "") {
    if (!isAbsolute(setting) || !executable(setting))
      throw new EddiError(`eddi.serverPath ${setting} is not an executable file: give the absolute path of eddi-server`);
    return setting;
  }
  for (const folder of (pathEnv ?? "").split(delimiter)) {
    if (!folder) continue;
    const candidate = join(folder, SERVER_PROGRAM);
    if (executable(candidate)) return candidate;
  }
  return undefined;
}

/** The stdio server VS Code spawns for its chat: eddi over the folder. */
export interface StdioDefinition {
  label: string;
  command: string;
  args: string[];
}

export function serverDefinition(server: string, folder: string): StdioDefinition {
  return { label: "eddi", command: server, args: ["--stdio", "--root", folder] };
}

// ------------------------------------------------------------------ MCP

interface ToolResult {
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError: boolean;
}

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };

/** A line from the server: a response (id, result or error) or a notification. */
interface RpcMessage {
  id?: unknown;
  method?: string;
  result?: unknown;
  error?: { code: number; message: string };
}

/** How long a request may take before it is given up (a rename of a big workspace takes seconds). */
const REQUEST_TIMEOUT_MS = 120_000;

/**
 * One eddi-server process and its MCP session. The extension's commands
 * use their own process: VS Code's chat spawns another through the
 * definition provider.
 */
export class EddiConnection {
  private nextId = 1;
  private pending = new Map<number, Pending>();
  private buffered = "";
  private stderr = "";

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => this.read(chunk));
    child.stderr.on("data", (chunk: Buffer) => (this.stderr = (this.stderr + chunk.toString()).slice(-4000)));
    child.on("exit", (code) => {
      for (const { reject } of this.pending.values())
        reject(new EddiError(`eddi-server stopped (exit ${code}): ${this.stderr.trim()}`));
      this.pending.clear();
    });
  }

  /** Start server over folder and shake hands. */
  static async open(server: string, folder: string, extraArgs: string[] = []): Promise<EddiConnection> {
    const definition = serverDefinition(server, folder);
    const child = spawn(definition.command, [...definition.args, ...extraArgs], { stdio: "pipe" });
    const connection = new EddiConnection(child);
    await connection.request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "eddi-vscode", version: "0.1.0" },
    });
    connection.notify("notifications/initialized", {});
    return connection;
  }

  private read(chunk: string): void {
    this.buffered += chunk;
    for (let newline; (newline = this.buffered.indexOf("\n")) >= 0; ) {
      const line = this.buffered.slice(0, newline);
      this.buffered = this.buffered.slice(newline + 1);
      if (!line.trim()) continue;
      const message = JSON.parse(line) as RpcMessage;
      const id = typeof message.id === "number" ? message.id : undefined;
      const waiting = id === undefined ? undefined : this.pending.get(id);
      if (id === undefined || !waiting) continue; // notifications (progress, log messages)
      this.pending.delete(id);
      if (message.error) waiting.reject(new EddiError(message.error.message));
      else waiting.resolve(message.result);
    }
  }

  private send(message: object): void {
    this.child.stdin.write(JSON.stringify(message) + "\n");
  }

  private notify(method: string, params: object): void {
    this.send({ jsonrpc: "2.0", method, params });
  }

  request(method: string, params: object): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        this.notify("notifications/cancelled", { requestId: id, reason: "timed out" });
        reject(new EddiError(`eddi-server did not answer ${method} within ${REQUEST_TIMEOUT_MS / 1000} s`));
      }, REQUEST_TIMEOUT_MS);
      this.pending.set(id, {
        resolve: (value) => (clearTimeout(timer), resolve(value)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      });
      this.send({ jsonrpc: "2.0", id, method, params });
    });
  }

  /** A tool's result; a Fail (isError) becomes an EddiError with eddi's words. */
  async tool(name: string, args: object): Promise<ToolResult> {
    const result = (await this.request("tools/call", { name, arguments: args })) as ToolResult;
    if (result.isError) throw new EddiError(result.content.map((item) => item.text).join("\n"));
    return result;
  }

  /** EddiSpeak text through the eddi tool: its reply lines. */
  async speak(text: string): Promise<string> {
    return (await this.tool("eddi", { text })).content[0].text;
  }

  close(): void {
    this.child.stdin.end();
  }
}

// ------------------------------------------------------------------ renames

/** A file a preview would change: its path in the workspace and the diff's hunks. */
export interface FilePatch {
  path: string;
  hunks: Hunk[];
}

interface HunkLine {
  op: " " | "-" | "+";
  text: string;
  newline: boolean; // false: "\ No newline at end of file" followed it
}

interface Hunk {
  oldStart: number;
  oldCount: number;
  lines: HunkLine[];
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/;

/** The files of a unified diff (eddi's: --- a/P, +++ b/P, @@ hunks). */
export function parseDiff(diff: string): FilePatch[] {
  const files: FilePatch[] = [];
  let hunk: Hunk | undefined;
  for (const line of diff.split("\n")) {
    if (line.startsWith("+++ b/")) {
      files.push({ path: line.slice("+++ b/".length), hunks: [] });
      hunk = undefined;
    } else if (line.startsWith("--- ")) {
      hunk = undefined;
    } else if (HUNK_HEADER.test(line) && files.length) {
      const [, start, count] = HUNK_HEADER.exec(line)!;
      hunk = { oldStart: Number(start), oldCount: count === undefined ? 1 : Number(count), lines: [] };
      files[files.length - 1].hunks.push(hunk);
    } else if (hunk && line.startsWith("\\")) {
      const last = hunk.lines[hunk.lines.length - 1];
      if (last) last.newline = false;
    } else if (hunk && (line[0] === " " || line[0] === "-" || line[0] === "+")) {
      hunk.lines.push({ op: line[0], text: line.slice(1), newline: true });
    } else if (hunk && line === "") {
      hunk.lines.push({ op: " ", text: "", newline: true }); // a blank context line cut short
    }
  }
  return files;
}

/** before with patch applied; throws when its context does not fit. */
export function applyPatch(before: string, patch: FilePatch): string {
  const lines = before.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const out: string[] = [];
  let at = 0;
  for (const hunk of patch.hunks) {
    const start = hunk.oldCount === 0 ? hunk.oldStart : hunk.oldStart - 1;
    while (at < start) out.push(lines[at++]);
    for (const line of hunk.lines) {
      if (line.op === "+") {
        out.push(line.text + (line.newline ? "\n" : ""));
        continue;
      }
      const had = (lines[at] ?? "").replace(/\n$/, "");
      if (had !== line.text)
        throw new EddiError(`${patch.path} changed since the preview (line ${at + 1}): preview again`);
      if (line.op === " ") out.push(lines[at]);
      at++;
    }
  }
  while (at < lines.length) out.push(lines[at++]);
  return out.join("");
}

/** What a refactoring would do: eddi's summary and each file's text before and after. */
export interface RefactorPreview {
  summary: string;
  files: { path: string; before: string; after: string }[];
}

/** The refactor and preview tools' arguments. */
export interface RefactorArguments {
  operation: string;
  target: string;
  new_name?: string;
}

/** The operations the refactor tool takes, as its schema lists them. */
export const REFACTOR_OPERATIONS = [
  "RenameSymbol",
  "Rename_Class",
  "Signature",
  "Extract_Method",
  "InlineFunction",
  "Inline_Variable",
  "Move_Method",
  "Extract_Interface",
  "ExtractClass",
  "Split_Class",
  "Merge_Classes",
  "Change_Inheritance",
];

export function renameArguments(target: string, newName: string): RefactorArguments {
  return { operation: "RenameSymbol", target, new_name: newName };
}

/**
 * Preview a refactoring (target: a name, Class.method, or path:line:col
 * with 0-based line and column); readFile gives a workspace file's text as
 * it is now. Nothing is written.
 */
export async function previewRefactor(
  connection: EddiConnection,
  args: RefactorArguments,
  readFile: (path: string) => Promise<string>,
): Promise<RefactorPreview> {
  const result = await connection.tool("preview", args);
  const data = result.structuredContent as { summary: string; diff: string };
  const files = [];
  for (const patch of parseDiff(data.diff)) {
    const before = await readFile(patch.path);
    files.push({ path: patch.path, before, after: applyPatch(before, patch) });
  }
  return { summary: data.summary, files };
}

/** Apply a refactoring through eddi's transaction (all files or none): eddi's reply. */
export async function applyRefactor(connection: EddiConnection, args: RefactorArguments): Promise<string> {
  return (await connection.tool("refactor", args)).content[0].text;
}

export function previewRename(
  connection: EddiConnection,
  target: string,
  newName: string,
  readFile: (path: string) => Promise<string>,
): Promise<RefactorPreview> {
  return previewRefactor(connection, renameArguments(target, newName), readFile);
}

export function applyRename(connection: EddiConnection, target: string, newName: string): Promise<string> {
  return applyRefactor(connection, renameArguments(target, newName));
}

/** Undo eddi's last change (a rename is one step over all its files): eddi's reply. */
export function undoLast(connection: EddiConnection): Promise<string> {
  return connection.speak("Undo");
}

/** The status bar's words: the session eddi's reply to Status names. */
export async function sessionLabel(connection: EddiConnection): Promise<string> {
  let reply: string;
  try {
    reply = await connection.speak("Status");
  } catch {
    return "eddi: no session"; // Status fails until a tool starts one
  }
  const session = /Session ([^,]+)/.exec(reply);
  return session ? `eddi: ${session[1]}` : "eddi: no session";
}
