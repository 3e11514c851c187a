/**
 * Companies and feedback (upstream/API.md "Companies and feedback"): the public company search and
 * status, the public feedback form, and their operator calls (the company list kept with the money
 * catalogue's editor code, the feedback inbox). Every operator change writes its audit row in the
 * same transaction. The SQL is in store.ts.
 */
import type { FastifyInstance } from "fastify";
import * as api from "@contract/api/company";
import { PAGE_SIZE } from "@contract/constants";
import type { AppContext } from "../../platform/context.js";
import { userForToken, tokenOf } from "../../platform/http/auth.js";
import { CODE, DomainError } from "../../platform/errors.js";
import { route } from "../../platform/http/route.js";
import { wireTime } from "../../platform/wire.js";
import { addressSubject } from "../../platform/limits.js";
import { writeAudit } from "../operators/audit.js";
import { isEmail, isWebAddress } from "./checks.js";
import * as store from "./store.js";
import type { FeedbackRow } from "./store.js";
import { operatorOf } from "../../platform/http/operator-guard.js";
import {
  addToCatalog,
  invalid,
  listCatalog,
  updateCatalog,
  type Catalog,
  type Field,
} from "../operators/catalog.js";

const INVALID = "money_invalid_field";
const extras = { invalidFieldKey: INVALID };

type Value = ReturnType<Field["read"]>;

/**
 * A company's field as its schema answers it (contract/api/company.ts: trimmed, bounded, of its
 * type); `check` holds the upstream's own rule of its value.
 */
const field = (name: string, dflt?: Value, check?: (v: string) => string): Field => ({
  name,
  dflt,
  read: (v) => (check ? check(String(v)) : (v as Value)),
});

/** An http(s) address, or "". */
const webAddress = (name: string): Field =>
  field(name, "", (v) => {
    if (v !== "" && !isWebAddress(v)) throw invalid(name);
    return v;
  });

/** The logo: a file under /static/logos/ or an https address. */
const logo = field("logo", "", (v) => {
  if (v !== "" && !/^\/static\/logos\/[A-Za-z0-9_-]{1,80}\.svg$/.test(v) && !isWebAddress(v))
    throw invalid("logo");
  return v;
});

export const COMPANIES: Catalog<api.AdminCompany> = {
  table: "companies",
  noun: "company",
  fields: [
    field("name"),
    logo,
    webAddress("url"),
    field("subject", ""),
    field("registered_address", ""),
    field("location", ""),
    field("email", "", (raw) => {
      const v = raw.toLowerCase();
      if (v !== "" && !isEmail(v)) throw invalid("email");
      return v;
    }),
    field("status", 0),
    field("type", 0),
    webAddress("loss_url"),
    field("enabled", 1),
    field("sort", 0),
  ],
  check: (r) => {
    // A closed company must say where its visitors go.
    if (Number(r.status) !== api.COMPANY_STATUS_OPEN && !r.loss_url)
      throw new DomainError("company.loss_url_required");
  },
  view: (r) => ({
    id: Number(r.id),
    name: String(r.name),
    logo: String(r.logo),
    url: String(r.url),
    subject: String(r.subject),
    registered_address: String(r.registered_address),
    location: String(r.location),
    email: String(r.email),
    status: Number(r.status),
    type: Number(r.type),
    loss_url: String(r.loss_url),
    enabled: Number(r.enabled),
    sort: Number(r.sort),
  }),
};

const publicView = (c: api.AdminCompany): api.Company => ({
  id: c.id,
  name: c.name,
  logo: c.logo,
  url: c.url,
  subject: c.subject,
  registered_address: c.registered_address,
  location: c.location,
  email: c.email,
});

const feedbackView = (r: FeedbackRow): api.AdminFeedback => ({
  id: r.id,
  uid: r.uid,
  message: r.message,
  contact: r.contact,
  lang: r.lang,
  handled: r.handled,
  handled_by: r.handled_by,
  handled_at: r.handled_at === null ? null : wireTime(r.handled_at),
  created_at: wireTime(r.created_at),
});

export function registerCompanyRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx;

  route(
    app,
    api.getCompany,
    async (req) => {
      const rows = store.enabledCompaniesNamed(db, req.query.name ?? "");
      return ctx.ok(
        req,
        rows.map((r) => publicView(COMPANIES.view(r))),
      );
    },
    extras,
  );

  route(
    app,
    api.getCompanyStatus,
    async (req) => {
      const r = store.companyStatus(db, req.query.id);
      if (!r) throw new DomainError("company.not_found", CODE.NOT_FOUND, {}, 404);
      return ctx.ok(req, { status: r.status, type: r.type, loss_url: r.loss_url });
    },
    extras,
  );

  route(
    app,
    api.submitFeedback,
    async (req) => {
      const { message, contact = "" } = req.body;
      const user = userForToken(db, tokenOf(req));
      await ctx.limits.consume(["feedback_ip", addressSubject(req.ip)]);
      const id = store.insertFeedback(db, {
        userId: user?.id ?? null,
        message,
        contact,
        lang: req.lang,
        createdAt: Date.now(),
      });
      return ctx.ok(req, { id }, "company.feedback_received");
    },
    extras,
  );

  route(
    app,
    api.companies,
    async (req) => {
      return ctx.ok(req, listCatalog(db, COMPANIES));
    },
    extras,
  );
  route(
    app,
    api.addCompany,
    async (req) => {
      const op = operatorOf(req);
      return ctx.ok(req, addToCatalog(db, COMPANIES, req.body, op.actor));
    },
    extras,
  );
  route(
    app,
    api.updateCompany,
    async (req) => {
      const op = operatorOf(req);
      return ctx.ok(req, updateCatalog(db, COMPANIES, req.params.id, req.body, op.actor));
    },
    extras,
  );

  route(
    app,
    api.feedbackInbox,
    async (req) => {
      const { page } = req.query;
      const total = store.feedbackCount(db);
      const rows = store.feedbackRows(db, { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
      return ctx.ok(req, { data: rows.map(feedbackView), total });
    },
    extras,
  );

  route(
    app,
    api.handleFeedback,
    async (req) => {
      const op = operatorOf(req);
      const { id } = req.params;
      const row = db.transaction(() => {
        const before = store.feedbackHandled(db, id);
        if (!before) throw new DomainError("not_found", CODE.NOT_FOUND, {}, 404);
        if (!before.handled) {
          store.markFeedbackHandled(db, { id, handledBy: op.actor, handledAt: Date.now() });
          writeAudit(db, { actor: op.actor, action: "feedback.handled", target: `feedback:${id}` });
        }
        return store.feedbackById(db, id);
      })();
      return ctx.ok(req, feedbackView(row));
    },
    extras,
  );
}
