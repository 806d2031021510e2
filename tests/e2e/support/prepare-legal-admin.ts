/**
 * The fixtures of tests/e2e/legal-admin/accounts.ts, created by prepare.ts before the server starts. Called
 * last: "every prepared account agrees to version 2 of the gate document ahead" must cover them all.
 */
import { ne, sql } from "drizzle-orm";
import { db } from "../../../app/db/client.server";
import { legalDocumentDrafts, legalDocuments, legalDocumentVersions, signatures, users } from "../../../app/db/schema";
import { hashPassword } from "../../../app/modules/accounts/password.server";
import { listPublishedDocuments, signDocuments } from "../../../app/modules/legal/legal.server";
import { DRAFT_DOCUMENT, GATE_DOCUMENT, LEGAL_ADMIN_PASSWORD, LEGAL_MEMBERS, legalMemberName } from "../legal-admin/accounts";

export async function prepareLegalAdminData(): Promise<string> {
  const passwordHash = await hashPassword(LEGAL_ADMIN_PASSWORD);
  const now = new Date();
  const documentIds = (await listPublishedDocuments()).map((d) => d.id);
  const created = await db()
    .insert(users)
    .values(
      (Object.entries(LEGAL_MEMBERS) as Array<[keyof typeof LEGAL_MEMBERS, string]>).map(([key, email]) => ({
        ...legalMemberName(key),
        email,
        passwordHash,
        activatedAt: now,
        emailVerifiedAt: now,
        acctType: 1,
        roleId: 5,
      })),
    )
    .returning({ id: users.id, email: users.email });
  for (const { id } of created) await signDocuments({ userId: id, documentIds, ip: "127.0.0.1", userAgent: "e2e prepare" });
  const gate = created.find((u) => u.email === LEGAL_MEMBERS.gate)!;

  // Published once (version 1, on record), then withdrawn: out of every list and of the gate until the spec
  // publishes version 2. Its draft is the version 1 text, as withdrawing leaves it.
  const [doc] = await db()
    .insert(legalDocuments)
    .values({ name: GATE_DOCUMENT.name, slug: GATE_DOCUMENT.slug, content: GATE_DOCUMENT.v1, version: 1, required: true, published: false })
    .returning({ id: legalDocuments.id });
  await db().insert(legalDocumentVersions).values({ documentId: doc!.id, version: 1, name: GATE_DOCUMENT.name, content: GATE_DOCUMENT.v1, publishedAt: now });
  await db().insert(legalDocumentDrafts).values({ documentId: doc!.id, content: GATE_DOCUMENT.v1 });
  await db().insert(signatures).values({ userId: gate.id, documentId: doc!.id, documentVersion: 1, ip: "203.0.113.7", userAgent: "E2E Gate Browser/1.0" });
  // Everyone else agrees to version 2 ahead (one statement).
  await db().execute(sql`insert into ${signatures} (user_id, document_id, document_version, ip, user_agent)
    select id, ${doc!.id}, 2, '127.0.0.1', 'e2e prepare' from ${users} where ${ne(users.id, gate.id)}
    on conflict do nothing`);

  const [draftOnly] = await db()
    .insert(legalDocuments)
    .values({ name: DRAFT_DOCUMENT.name, slug: DRAFT_DOCUMENT.slug, content: "", version: 1, required: false, published: false })
    .returning({ id: legalDocuments.id });
  await db().insert(legalDocumentDrafts).values({ documentId: draftOnly!.id, content: DRAFT_DOCUMENT.v1 });
  return `2 members and 2 documents for legal-admin/`;
}
