// eddi-server's connection options against a real nats-server: TLS with a
// throwaway CA made here with openssl (server certificate, then mutual TLS
// with a client certificate), user and password, a token, and secrets kept
// in a --config file rather than on the command line.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect, StringCodec } from "nats";
import { exited, startNatsServer, startEddiServer, tempWorkspace } from "./helpers.mjs";

const sc = StringCodec();
let pki, workspace;

// A CA, and a server and a client certificate it signed.
function makePki(dir) {
  const ssl = (...args) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
  ssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=eddi test CA",
      "-keyout", "ca-key.pem", "-out", "ca.pem");
  writeFileSync(join(dir, "server.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
  writeFileSync(join(dir, "client.ext"), "extendedKeyUsage=clientAuth\n");
  for (const [name, cn] of [["server", "127.0.0.1"], ["client", "eddi-client"]]) {
    ssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", `/CN=${cn}`, "-keyout", `${name}-key.pem`,
        "-out", `${name}.csr`);
    ssl("x509", "-req", "-in", `${name}.csr`, "-CA", "ca.pem", "-CAkey", "ca-key.pem", "-CAcreateserial",
        "-days", "1", "-extfile", `${name}.ext`, "-out", `${name}.pem`);
  }
  const file = (name) => join(dir, name);
  return { dir, ca: file("ca.pem"), cert: file("server.pem"), key: file("server-key.pem"),
           clientCert: file("client.pem"), clientKey: file("client-key.pem") };
}

before(() => {
  pki = makePki(mkdtempSync(join(tmpdir(), "eddi-it-pki-")));
  workspace = tempWorkspace();
});

after(() => {
  rmSync(pki.dir, { recursive: true, force: true });
  workspace.remove();
});

// Start eddi-server with args on nats, ask it "Start <session>" as a client
// connected with clientOptions, and stop both.
async function roundTrip(nats, eddiArgs, clientOptions, session) {
  const eddi = await startEddiServer(["--nats", nats.url, "--root", workspace.dir, "--name", session, ...eddiArgs]);
  const nc = await connect({ servers: nats.url, ...clientOptions });
  try {
    const reply = await nc.request("eddi.cmd", sc.encode(JSON.stringify({ sender: session, text: `Start ${session}` })),
                                   { timeout: 3000 });
    assert.equal(sc.decode(reply.data), `Ok, Instance ${session}`);
  } finally {
    await nc.close();
    const { code } = await eddi.stop();
    assert.equal(code, 0);
  }
  return eddi;
}

test("TLS: eddi-server trusts the server through --tls-ca", async () => {
  const nats = await startNatsServer(0, ["--tls", "--tlscert", pki.cert, "--tlskey", pki.key]);
  try {
    await roundTrip(nats, ["--tls-ca", pki.ca], { tls: { caFile: pki.ca } }, "tls1");
  } finally {
    await nats.stop();
  }
});

// A server that is up but refuses the connection will not take it later:
// eddi-server says why and exits, rather than retrying it in silence.
test("TLS: a server eddi-server cannot trust stops it with the reason", async () => {
  const nats = await startNatsServer(0, ["--tls", "--tlscert", pki.cert, "--tlskey", pki.key]);
  const eddi = await startEddiServer(["--nats", nats.url, "--root", workspace.dir, "--name", "untrusted",
                                      "--tls-ca", pki.clientCert], { waitNats: false });
  try {
    const { code } = await exited(eddi.child);
    assert.equal(code, 1);
    assert.match(eddi.log.text,
      /^eddi-server: error: nats: cannot connect to nats:\/\/127\.0\.0\.1:\d+: SSL handshake error: .*certificate/m);
  } finally {
    await eddi.stop();
    await nats.stop();
  }
});

test("a wrong password stops eddi-server with the reason", async () => {
  const nats = await startNatsServer(0, ["--user", "eddi", "--pass", "s3cret"]);
  const eddi = await startEddiServer(["--nats", nats.url, "--root", workspace.dir, "--name", "wrong",
                                      "--user", "eddi", "--password", "guess"], { waitNats: false });
  try {
    const { code } = await exited(eddi.child);
    assert.equal(code, 1);
    assert.match(eddi.log.text, /^eddi-server: error: nats: cannot connect to .*: Authorization Violation$/m);
  } finally {
    await nats.stop();
  }
});

test("mutual TLS: the server verifies eddi-server's --tls-cert and --tls-key", async () => {
  const nats = await startNatsServer(0, ["--tlsverify", "--tlscert", pki.cert, "--tlskey", pki.key,
                                         "--tlscacert", pki.ca]);
  try {
    await roundTrip(nats, ["--tls-ca", pki.ca, "--tls-cert", pki.clientCert, "--tls-key", pki.clientKey],
                    { tls: { caFile: pki.ca, certFile: pki.clientCert, keyFile: pki.clientKey } }, "mtls");
  } finally {
    await nats.stop();
  }
});

test("user and password, given in a --config file", async () => {
  const nats = await startNatsServer(0, ["--user", "eddi", "--pass", "s3cret"]);
  const config = join(pki.dir, "eddi.conf");
  // A secret in a file of the owner's, not in the process list.
  writeFileSync(config, "user eddi\npassword s3cret\n", { mode: 0o600 });
  try {
    await roundTrip(nats, ["--config", config], { user: "eddi", pass: "s3cret" }, "userpass");
  } finally {
    await nats.stop();
  }
});

test("a token", async () => {
  const nats = await startNatsServer(0, ["--auth", "t0ken"]);
  try {
    await roundTrip(nats, ["--token", "t0ken"], { token: "t0ken" }, "token");
  } finally {
    await nats.stop();
  }
});
