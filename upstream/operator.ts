/**
 * `npm run operator -- add NAME | list | disable NAME`: operator accounts of the upstream's store
 * (DATA_DIR/upstream.sqlite, or UPSTREAM_DB).
 *
 * `add` prints the new operator's password once (it is stored only as an argon2id hash) and the
 * TOTP secret as an otpauth:// URI for an authenticator app; signing in at the operator console
 * needs both. `disable` ends the operator's sign-ins at once.
 */
import { ConfigError, loadConfig, secretKeyDir, type UpstreamConfig } from "./platform/config.js";
import { loadSecretKey } from "./platform/secret-box.js";
import { openDb } from "./platform/db.js";
import { createOperator, disableOperator, listOperators } from "./modules/operators/accounts.js";

const USAGE = "usage: npm run operator -- add NAME | list | disable NAME";

async function main(argv: string[]): Promise<number> {
  const [cmd, name] = argv;
  let config: UpstreamConfig;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      return 2;
    }
    throw err;
  }
  const dbFile = config.dbFile;
  const db = openDb(dbFile);
  try {
    if (cmd === "add" && name) {
      const key = loadSecretKey(config.operatorSecretKey, secretKeyDir(config));
      const op = await createOperator(db, key, name);
      console.log(`Operator ${op.name} created in ${dbFile}.`);
      console.log(`Password (shown once): ${op.password}`);
      console.log(`TOTP: add this to an authenticator app (or scan it as a QR code):`);
      console.log(`  ${op.uri}`);
      return 0;
    }
    if (cmd === "list") {
      for (const o of listOperators(db))
        console.log(
          `${o.name}\t${new Date(o.createdAt).toISOString()}\t${o.disabled ? "disabled" : "active"}`,
        );
      return 0;
    }
    if (cmd === "disable" && name) {
      if (!disableOperator(db, name)) {
        console.error(`No active operator named ${name}.`);
        return 1;
      }
      console.log(`Operator ${name} disabled; their sign-ins ended.`);
      return 0;
    }
    console.error(USAGE);
    return 2;
  } catch (err) {
    console.error((err as Error).message);
    return 1;
  } finally {
    db.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
