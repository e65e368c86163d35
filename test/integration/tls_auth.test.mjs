// eddi-server's connection options against a real nats-server: TLS with a
// throwaway CA made here with openssl (server certificate, then mutual TLS
// with a client certificate), user and password, a token, secrets kept in
// a --config file rather than on the command line, and a creds file (a user
// JWT and its nkey seed) for a server in operator mode, the JWTs made here
// with the nkeys the npm client carries (no nsc).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect, credsAuthenticator, nkeys, StringCodec } from "nats";
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

// ---------------------------------------------------------------- creds

// A JWT of claims signed by signer (an nkey pair), as nsc would make it.
function signedJwt(claims, signer) {
  const part = (value) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const unsigned = `${part({ typ: "JWT", alg: "ed25519-nkey" })}.${part(claims)}`;
  return `${unsigned}.${Buffer.from(signer.sign(new TextEncoder().encode(unsigned))).toString("base64url")}`;
}

// An operator, an account it signed, and a user the account (or another
// one, when forged) signed: the server's config and the user's creds file.
function operatorSetup(dir, { forged = false } = {}) {
  const operator = nkeys.createOperator(), account = nkeys.createAccount(), user = nkeys.createUser();
  const issuer = forged ? nkeys.createAccount() : account;
  const iat = Math.floor(Date.now() / 1000);
  const jti = () => randomBytes(26).toString("hex").toUpperCase();
  const claims = (iss, sub, nats) => ({ jti: jti(), iat, iss, sub, name: sub.slice(0, 8), nats: { version: 2, ...nats } });
  const operatorJwt = signedJwt(claims(operator.getPublicKey(), operator.getPublicKey(), { type: "operator" }), operator);
  const accountJwt = signedJwt(claims(operator.getPublicKey(), account.getPublicKey(), {
    type: "account", limits: { subs: -1, data: -1, payload: -1, imports: -1, exports: -1, wildcards: true, conn: -1, leaf: -1 },
  }), operator);
  const userJwt = signedJwt(claims(issuer.getPublicKey(), user.getPublicKey(), {
    type: "user", pub: {}, sub: {}, subs: -1, data: -1, payload: -1, issuer_account: account.getPublicKey(),
  }), issuer);
  const config = join(dir, forged ? "forged.conf" : "operator.conf");
  writeFileSync(config, `operator: ${operatorJwt}\nresolver: MEMORY\n` +
                        `resolver_preload: {\n  ${account.getPublicKey()}: ${accountJwt}\n}\n`);
  const creds = join(dir, forged ? "forged.creds" : "user.creds");
  writeFileSync(creds, `-----BEGIN NATS USER JWT-----\n${userJwt}\n------END NATS USER JWT------\n\n` +
                       `-----BEGIN USER NKEY SEED-----\n${new TextDecoder().decode(user.getSeed())}\n` +
                       `------END USER NKEY SEED------\n`, { mode: 0o600 });
  return { config, creds };
}

test("a creds file (user JWT and nkey seed) for a server in operator mode", async () => {
  const { config, creds } = operatorSetup(pki.dir);
  const nats = await startNatsServer(0, ["-c", config]);
  try {
    const authenticator = credsAuthenticator(new TextEncoder().encode(readFileSync(creds, "utf8")));
    await roundTrip(nats, ["--creds", creds], { authenticator }, "creds");
  } finally {
    await nats.stop();
  }
});

test("a creds file the server's account did not sign stops eddi-server", async () => {
  const { config, creds } = operatorSetup(pki.dir, { forged: true });
  const nats = await startNatsServer(0, ["-c", config]);
  const eddi = await startEddiServer(["--nats", nats.url, "--root", workspace.dir, "--name", "forged",
                                      "--creds", creds], { waitNats: false });
  try {
    assert.equal((await exited(eddi.child)).code, 1);
    assert.match(eddi.log.text, /^eddi-server: error: nats: cannot connect to .*: Authorization Violation$/m);
  } finally {
    await nats.stop();
  }
});
