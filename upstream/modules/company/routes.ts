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
import { intField, pageField } from "../../platform/params.js";
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
  enabled,
  invalid,
  listCatalog,
  oneOf,
  sort,
  str,
  textField,
  updateCatalog,
  type Catalog,
  type Field,
} from "../operators/catalog.js";

const INVALID = "money_invalid_field";
const extras = { invalidFieldKey: INVALID };

const webAddress = (name: string): Field => ({
  name,
  dflt: "",
  read: (raw) => {
    const v = str(raw);
    if (v !== "" && !isWebAddress(v)) throw invalid(name);
    return v;
  },
});

/** The logo: a file under /static/logos/ or an https address. */
const logo: Field = {
  name: "logo",
  dflt: "",
  read: (raw) => {
    const v = str(raw);
    if (v !== "" && !/^\/static\/logos\/[A-Za-z0-9_-]{1,80}\.svg$/.test(v) && !isWebAddress(v))
      throw invalid("logo");
    return v;
  },
};

const small = (name: string) => oneOf(name, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], { dflt: 0 });

export const COMPANIES: Catalog<api.AdminCompany> = {
  table: "companies",
  noun: "company",
  fields: [
    textField("name", 120),
    logo,
    webAddress("url"),
    textField("subject", 300, ""),
    textField("registered_address", 300, ""),
    textField("location", 300, ""),
    {
      name: "email",
      dflt: "",
      read: (raw) => {
        const v = str(raw).toLowerCase();
        if (v !== "" && !isEmail(v)) throw invalid("email");
        return v;
      },
    },
    small("status"),
    small("type"),
    webAddress("loss_url"),
    enabled,
    sort,
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
      const raw = req.query.name;
      const name = typeof raw === "string" ? raw.trim() : raw === undefined ? "" : null;
      if (name === null) throw invalid("name");
      if (name.length > api.COMPANY_SEARCH_MAX)
        throw new DomainError("company.search_too_long", CODE.FAIL, {
          max: api.COMPANY_SEARCH_MAX,
        });
      const rows = store.enabledCompaniesNamed(db, name);
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
      const id = intField(req.query.id, "id", INVALID);
      const r = store.companyStatus(db, id);
      if (!r) throw new DomainError("company.not_found", CODE.NOT_FOUND, {}, 404);
      return ctx.ok(req, { status: r.status, type: r.type, loss_url: r.loss_url });
    },
    extras,
  );

  route(
    app,
    api.submitFeedback,
    async (req) => {
      const body = req.body as Record<string, unknown>;
      const message = typeof body.message === "string" ? body.message.trim() : "";
      const contact = typeof body.contact === "string" ? body.contact.trim() : "";
      if (body.message !== undefined && typeof body.message !== "string") throw invalid("message");
      if (body.contact !== undefined && typeof body.contact !== "string") throw invalid("contact");
      if (!message) throw new DomainError("company.feedback_message_required");
      if (message.length > api.FEEDBACK_MESSAGE_MAX)
        throw new DomainError("company.feedback_message_too_long", CODE.FAIL, {
          max: api.FEEDBACK_MESSAGE_MAX,
        });
      if (contact.length > api.FEEDBACK_CONTACT_MAX)
        throw new DomainError("company.feedback_contact_too_long", CODE.FAIL, {
          max: api.FEEDBACK_CONTACT_MAX,
        });
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
      const id = intField((req.params as { id: string }).id, "id", INVALID);
      return ctx.ok(req, updateCatalog(db, COMPANIES, id, req.body, op.actor));
    },
    extras,
  );

  route(
    app,
    api.feedbackInbox,
    async (req) => {
      const page = pageField(req.query.page, INVALID);
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
      const id = intField((req.params as { id: string }).id, "id", INVALID);
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
