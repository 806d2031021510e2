import { eq, or, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { User } from "~/db/schema";
import { hasAdminAccess, isAdminAccount } from "~/modules/accounts/roles";

/**
 * Who may see and act on marketplace records (deny by default). A record is visible to its client, to the
 * owner of its provider profile and to administrators; anyone else gets the same 404 as for a missing id.
 * Money decisions (confirming a payment, resolving a dispute, canceling after delivery) need an administrator
 * with admin access (role below 3).
 */
export type MarketplaceActor = Pick<User, "id" | "acctType" | "roleId" | "name" | "lastName" | "email">;

export const isAdmin = (actor: Pick<User, "acctType">) => isAdminAccount(actor);
export const mayDecideMoney = (actor: Pick<User, "acctType" | "roleId">) => isAdminAccount(actor) && hasAdminAccess(actor);

/** SQL: the row's client or provider owner is the actor, or the actor is an administrator. */
export function participantOrAdmin(t: { clientId: AnyPgColumn; providerOwnerId: AnyPgColumn }, actor: Pick<User, "id" | "acctType">): SQL {
  return isAdmin(actor) ? sql`true` : or(eq(t.clientId, actor.id), eq(t.providerOwnerId, actor.id))!;
}

export function isParticipant(row: { clientId: number; providerOwnerId: number }, actor: Pick<User, "id" | "acctType">): boolean {
  return isAdmin(actor) || row.clientId === actor.id || row.providerOwnerId === actor.id;
}

/** An id from a request that can name a row (a positive 32-bit integer); anything else names nothing. */
export function validId(id: unknown): id is number {
  return typeof id === "number" && Number.isInteger(id) && id > 0 && id <= 2_147_483_647;
}
