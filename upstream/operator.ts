/**
 * `npm run operator -- add NAME --role ROLE | role NAME ROLE | disable NAME | list`: operator
 * accounts of the upstream's store (PostgreSQL with DATABASE_URL, else DATA_DIR/upstream.sqlite or
 * UPSTREAM_DB). Roles: viewer, support, finance, admin (contract/operators.ts).
 *
 * `add` prints the new operator's password once (it is stored only as an argon2id hash) and the
 * TOTP secret as an otpauth:// URI for an authenticator app; signing in at the operator console
 * needs both. `role` and `disable` end the operator's sign-ins at once. Each change writes its row
 * in the audit log (actor `cli`).
 */
import {
  ConfigError,
  loadConfig,
  requireSecretKeyWithPostgres,
  redactedStore,
  secretKeyDir,
  storeOf,
  type UpstreamConfig,
} from "./platform/config.js";
import { loadSecretKey } from "./platform/secret-box.js";
import { openStore } from "./platform/db.js";
import {
  createOperator,
  disableOperator,
  listOperators,
  setOperatorRole,
} from "./modules/operators/accounts.js";
import { isOperatorRole, OPERATOR_ROLES } from "@contract/operators";

const ROLES = OPERATOR_ROLES.join("|");
const USAGE = `usage: npm run operator -- add NAME --role ${ROLES} | role NAME ${ROLES} | disable NAME | list`;

async function main(argv: string[]): Promise<number> {
  const [cmd, name, ...rest] = argv;
  let config: UpstreamConfig;
  try {
    config = requireSecretKeyWithPostgres(loadConfig());
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      return 2;
    }
    throw err;
  }
  const dbFile = redactedStore(storeOf(config));
  const db = openStore(storeOf(config));
  try {
    if (cmd === "add" && name && rest[0] === "--role" && isOperatorRole(rest[1])) {
      const key = loadSecretKey(config.operatorSecretKey, secretKeyDir(config));
      const op = await createOperator(db, key, name, rest[1]);
      console.log(`Operator ${op.name} (${op.role}) created in ${dbFile}.`);
      console.log(`Password (shown once): ${op.password}`);
      console.log(`TOTP: add this to an authenticator app (or scan it as a QR code):`);
      console.log(`  ${op.uri}`);
      return 0;
    }
    if (cmd === "list") {
      for (const o of listOperators(db))
        console.log(
          `${o.name}\t${o.role}\t${new Date(o.createdAt).toISOString()}\t${o.disabled ? "disabled" : "active"}`,
        );
      return 0;
    }
    if (cmd === "role" && name && isOperatorRole(rest[0])) {
      if (!setOperatorRole(db, name, rest[0])) {
        console.error(`No active operator named ${name}.`);
        return 1;
      }
      console.log(`Operator ${name} is now ${rest[0]}; their sign-ins ended.`);
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
