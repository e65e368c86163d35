// Shared by the journal's tests: an eddi-server --stdio with its own state
// folder, and NATS requests to eddi with JSON bodies.
import { connect, StringCodec } from "nats";
import { startEddiServer, readJsonLines } from "./helpers.mjs";

const REPLY_TIMEOUT_MS = 20000;
const REQUEST_TIMEOUT_MS = 3000;
const sc = StringCodec();

// eddi-server --stdio over root with state as its state folder; send()
// runs eddi.exec as sender and resolves with the reply text ("exited" when
// the server dies first). runner as startEddiServer's.
export async function stdioServer(root, state, extra = [], runner = []) {
  const server = await startEddiServer(["--stdio", "--root", root, "--state", state, "--quiet", ...extra], {
    waitNats: false, runner,
  });
  const waiting = new Map();
  let nextId = 1;
  // A killed server answers nothing more: its waiting requests end at once.
  server.child.once("exit", () => {
    for (const resolve of waiting.values()) resolve("exited");
    waiting.clear();
  });
  readJsonLines(server.child.stdout, (response) => {
    const resolve = waiting.get(response.id);
    waiting.delete(response.id);
    if (resolve) resolve(response.result ? response.result.text : JSON.stringify(response.error));
  });
  return {
    server,
    send(text, sender = "agent") {
      const id = nextId++;
      const answer = new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no reply to ${text.slice(0, 40)}: ${server.log.text}`)), REPLY_TIMEOUT_MS);
        waiting.set(id, (value) => (clearTimeout(timer), resolve(value)));
      });
      server.child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method: "eddi.exec", params: { sender, text } }) + "\n");
      return answer;
    },
    async kill() {
      await server.stop("SIGKILL");
    },
    async stop(signal = "SIGTERM") {
      if (signal === "SIGTERM") server.child.stdin.end();
      await server.stop(signal);
    },
  };
}

// A NATS request with body as JSON; the reply's text.
export async function ask(nc, subject, body) {
  const reply = await nc.request(subject, sc.encode(JSON.stringify(body)), { timeout: REQUEST_TIMEOUT_MS });
  return sc.decode(reply.data);
}

// Two instances, alpha and beta, on nats over workspace (argsOf(name) their
// arguments) and a client connection; all stopped after the test t, then
// cleanup() runs.
export async function alphaAndBeta(t, nats, workspace, argsOf, cleanup = () => {}) {
  const alpha = await startEddiServer(argsOf("alpha"));
  const beta = await startEddiServer(argsOf("beta"));
  const nc = await connect({ servers: nats.url });
  t.after(async () => {
    await nc.close();
    await alpha.stop("SIGKILL");
    await beta.stop();
    await nats.stop();
    workspace.remove();
    cleanup();
  });
  return { alpha, beta, nc };
}
