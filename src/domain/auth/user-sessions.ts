import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { dictionary } from '@zxcvbn-ts/language-common';
import type { Database, Queryable } from '../../db/database.ts';
import { appendAuditEvents } from '../../db/repositories/audit-events.ts';
import {
  countOtherActiveAdministrators,
  deactivateUser,
  endSession,
  endUserSessions,
  findActiveUsersByEmail,
  findInvitationForUpdate,
  findLiveSession,
  findUser,
  insertInvitation,
  insertInvitedUser,
  insertSession,
  listOpenInvitations,
  listUsers,
  markInvitationAccepted,
  reactivateUser,
  touchSession,
  updateUserPassword,
  updateUserRole,
  userEmailTaken,
  type InvitationRow,
  type SessionRow,
  type UserRow,
} from '../../db/repositories/users.ts';
import { AppError, authErrors, invalidField, notFound } from '../../errors.ts';
import type { WriteContext } from '../audit.ts';
import type { AccessTokens, IssuedToken } from './access-tokens.ts';
import { throttlingAddress } from './client-addresses.ts';
import { ALL_ADDRESSES, FailureThrottle, isRefusal, type FailureCounter } from './failure-throttle.ts';
import { scopesFor, type Role } from './roles.ts';
import { hashPassword, passwordMatches } from './secrets.ts';

/**
 * People of an organization (SPEC §9): sign-in with an email and a password, sessions held by
 * an HttpOnly cookie, short-lived access tokens for the web app, invitations, password changes
 * and deactivation. The web app reaches the API with these tokens exactly as a client does, with
 * the user's role.
 */

/** A session lasts at most this long; then the person signs in again. */
export const SESSION_LIFETIME_SECONDS = 12 * 3600;
/** The web app's access tokens are short-lived; it asks for another from the session. */
export const USER_TOKEN_TTL_SECONDS = 300;
/** An invitation link is good for 72 hours (SPEC §9). */
export const INVITATION_LIFETIME_SECONDS = 72 * 3600;
export const PASSWORD_LENGTH_MIN = 12;
export const PASSWORD_LENGTH_MAX = 200;
/**
 * Failed sign-ins allowed per window: for one account from one address (what a stranger who
 * knows the email can use up, for that address only); for all accounts from one address; and
 * for one account from every address together, a much higher ceiling that only an attack spread
 * over many addresses reaches.
 */
export const LOGIN_FAILURES_PER_ACCOUNT_AND_ADDRESS = 10;
export const LOGIN_FAILURES_PER_ADDRESS = 50;
export const LOGIN_FAILURES_PER_ACCOUNT = 100;
export const LOGIN_FAILURE_WINDOW_SECONDS = 900;
/** Keys of the failure counters (the login_failures table counts per key and address). */
const ACCOUNT_KEY_PREFIX = 'login:';
const ADDRESS_KEY = 'login-address';
const EMAIL_PATTERN = /^[^\s@]{1,200}@[^\s@]{1,200}\.[^\s@]{1,60}$/;

const COMMON_PASSWORDS: ReadonlySet<string> = new Set((dictionary.passwords as string[]).map((password) => password.toLowerCase()));

/** Why a password is refused, or null: long enough, not common, not the email, not one character repeated. */
export function passwordProblem(password: unknown, email: string): string | null {
  if (typeof password !== 'string') return 'must be a string';
  if (password.length < PASSWORD_LENGTH_MIN) return `must have at least ${PASSWORD_LENGTH_MIN} characters; a few unrelated words make a good one`;
  if (password.length > PASSWORD_LENGTH_MAX) return `must have at most ${PASSWORD_LENGTH_MAX} characters`;
  const lowered = password.toLowerCase();
  if (COMMON_PASSWORDS.has(lowered)) return 'is one of the most common passwords; choose one nobody else would';
  if (lowered === email.toLowerCase() || lowered === email.split('@')[0]!.toLowerCase()) return 'must not be your email address';
  if (new Set(lowered).size < 4) return 'repeats too few characters; choose a password with more variety';
  return null;
}

function checkedPassword(password: unknown, email: string, pointer: string): string {
  const problem = passwordProblem(password, email);
  if (problem !== null) throw invalidField(pointer, problem);
  return password as string;
}

function normalizedEmail(email: unknown, pointer: string): string {
  if (typeof email !== 'string' || !EMAIL_PATTERN.test(email.trim())) throw invalidField(pointer, 'must be an email address such as ana@example.com');
  return email.trim();
}

/** An audit event about a user: no transaction involved. */
function userEvent(action: string, before: unknown, after: unknown) {
  return { action, before, after, transactionId: null, relatedTransactionId: null, matchId: null, groupId: null };
}

function secretHash(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

export interface SignedIn {
  /** The cookie's value; shown to nobody else, kept by the store only as a hash. */
  sessionSecret: string;
  session: SessionRow;
}

export interface UserView {
  id: string;
  email: string;
  role: Role;
  active: boolean;
  createdAt: string;
  lastLoginAt: string | null;
}

export function userView(user: UserRow): UserView {
  return { id: user.id, email: user.email, role: user.role, active: user.deactivatedAt === null, createdAt: user.createdAt, lastLoginAt: user.lastLoginAt };
}

export interface InvitationView {
  id: string;
  email: string;
  role: Role;
  createdAt: string;
  createdBy: string;
  expiresAt: string;
}

function invitationView(invitation: InvitationRow): InvitationView {
  return {
    id: invitation.id,
    email: invitation.email,
    role: invitation.role,
    createdAt: invitation.createdAt,
    createdBy: invitation.createdBy,
    expiresAt: invitation.expiresAt,
  };
}

function tooManyAttempts(retryAfterSeconds: number): AppError {
  return authErrors.signInsThrottled(retryAfterSeconds);
}

/**
 * The counters a failed password check is charged to: the account from this address, this
 * address for any account, the account from every address. Always in this order: the store
 * locks the counters in the order given.
 */
function loginCounters(email: string, requestAddress: string): FailureCounter[] {
  const account = ACCOUNT_KEY_PREFIX + email.toLowerCase();
  const address = throttlingAddress(requestAddress);
  return [
    { key: account, address, limit: LOGIN_FAILURES_PER_ACCOUNT_AND_ADDRESS },
    { key: ADDRESS_KEY, address, limit: LOGIN_FAILURES_PER_ADDRESS },
    { key: account, address: ALL_ADDRESSES, limit: LOGIN_FAILURES_PER_ACCOUNT },
  ];
}

export class UserSessions {
  readonly #throttle: FailureThrottle;

  constructor(
    private readonly database: Database,
    private readonly accessTokens: AccessTokens,
  ) {
    this.#throttle = new FailureThrottle(database, 'login_failures', LOGIN_FAILURE_WINDOW_SECONDS);
  }

  /**
   * Signs a person in. An attempt is charged to the throttle's counters (the account from this
   * address, this address for any account, the account from every address) before the password
   * is compared, in one atomic statement that refuses once a counter is full, so that however
   * many attempts arrive at once, on however many processes, at most the limit are compared; an
   * attempt whose password is right is given back. The answer never says whether an email exists.
   */
  async signIn(input: { email: unknown; password: unknown; organizationId?: string; address: string; userAgent: string | null }): Promise<SignedIn> {
    const email = normalizedEmail(input.email, '/email');
    if (typeof input.password !== 'string' || input.password === '') throw invalidField('/password', 'is required');
    const attempt = await this.#throttle.charge(loginCounters(email, input.address));
    if (isRefusal(attempt)) throw tooManyAttempts(attempt.retryAfterSeconds);

    let matching: UserRow[];
    try {
      const candidates = (await findActiveUsersByEmail(this.database, email)).filter(
        (user) => input.organizationId === undefined || user.organizationId === input.organizationId,
      );
      matching = [];
      for (const user of candidates) if (await passwordMatches(input.password, user.passwordHash)) matching.push(user);
      // Hash once even for an unknown email, so that timing does not tell which emails exist.
      if (candidates.length === 0) await passwordMatches(input.password, await hashForUnknownUsers());
    } catch (error) {
      // Not a wrong password (the store failed): the attempt does not count against the person.
      await attempt.release().catch(() => {});
      throw error;
    }
    // A wrong password stays charged: that is the failure.
    if (matching.length === 0) throw authErrors.wrongEmailOrPassword();
    await attempt.release();
    if (matching.length > 1) {
      throw authErrors.severalOrganizations(matching.map((user) => user.organizationId));
    }
    const user = matching[0]!;
    const sessionSecret = newSecret();
    const sessionId = randomUUID();
    await this.database.transaction((transaction) =>
      insertSession(transaction, {
        id: sessionId,
        organizationId: user.organizationId,
        userId: user.id,
        secretHash: secretHash(sessionSecret),
        lifetimeSeconds: SESSION_LIFETIME_SECONDS,
        address: input.address,
        userAgent: input.userAgent?.slice(0, 500) ?? null,
      }),
    );
    const session = await findLiveSession(this.database, secretHash(sessionSecret));
    return { sessionSecret, session: session! };
  }

  /** The live session of a cookie, or undefined (no cookie, signed out, expired, user deactivated). */
  async sessionOf(sessionSecret: string | undefined): Promise<SessionRow | undefined> {
    if (!sessionSecret) return undefined;
    return findLiveSession(this.database, secretHash(sessionSecret));
  }

  async requireSession(sessionSecret: string | undefined): Promise<SessionRow> {
    const session = await this.sessionOf(sessionSecret);
    if (session === undefined) throw authErrors.notSignedIn();
    return session;
  }

  async signOut(sessionSecret: string | undefined): Promise<void> {
    const session = await this.sessionOf(sessionSecret);
    if (session === undefined) return;
    await this.database.transaction((transaction) => endSession(transaction, session.organizationId, session.id, 'logout'));
    this.accessTokens.forgetSessions(session.organizationId, [session.id]);
  }

  /** A short-lived access token for the signed-in person, with the scopes of their role. */
  async accessToken(sessionSecret: string | undefined): Promise<{ token: IssuedToken; session: SessionRow }> {
    const session = await this.requireSession(sessionSecret);
    // Recording that the session was used and signing the token do not depend on each other:
    // done side by side, the app's first request after a page load waits for the slower one only.
    const [, token] = await Promise.all([
      touchSession(this.database, session.organizationId, session.id),
      this.accessTokens.issueForUser(
        { userId: session.userId, email: session.email, sessionId: session.id, organizationId: session.organizationId, scopes: scopesFor(session.role) },
        USER_TOKEN_TTL_SECONDS,
      ),
    ]);
    return { token, session };
  }

  /** Changes the signed-in person's password; every other session of theirs ends. */
  async changePassword(sessionSecret: string | undefined, input: { currentPassword: unknown; newPassword: unknown; address: string }): Promise<void> {
    const session = await this.requireSession(sessionSecret);
    const user = (await findUser(this.database, session.organizationId, session.userId))!;
    if (typeof input.currentPassword !== 'string') throw invalidField('/currentPassword', 'is not your current password');
    // The current password is a sign-in's secret: whoever holds a session (a borrowed browser)
    // must not be able to guess it faster than at the sign-in form, so it shares its throttle.
    const attempt = await this.#throttle.charge(loginCounters(user.email, input.address));
    if (isRefusal(attempt)) throw tooManyAttempts(attempt.retryAfterSeconds);
    let matches: boolean;
    try {
      matches = await passwordMatches(input.currentPassword, user.passwordHash);
    } catch (error) {
      await attempt.release().catch(() => {});
      throw error;
    }
    // A wrong password stays charged: that is the failure.
    if (!matches) throw invalidField('/currentPassword', 'is not your current password');
    await attempt.release();
    const next = checkedPassword(input.newPassword, user.email, '/newPassword');
    if (next === input.currentPassword) throw invalidField('/newPassword', 'is the same as the current password');
    const hash = await hashPassword(next);
    const ended = await this.database.transaction(async (transaction) => {
      await updateUserPassword(transaction, user.organizationId, user.id, hash);
      await appendAuditEvents(transaction, { organizationId: user.organizationId, actor: `user:${user.email}`, requestId: null, note: null }, [
        userEvent('user.password_changed', null, { userId: user.id }),
      ]);
      return endUserSessions(transaction, user.organizationId, user.id, 'password changed', session.id);
    });
    this.accessTokens.forgetSessions(user.organizationId, ended);
  }

  async listUsers(organizationId: string): Promise<{ users: UserView[]; invitations: InvitationView[] }> {
    const [users, invitations] = await Promise.all([listUsers(this.database, organizationId), listOpenInvitations(this.database, organizationId)]);
    return { users: users.map(userView), invitations: invitations.map(invitationView) };
  }

  /**
   * An invitation link for a new user, in the caller's transaction (the idempotent write's); the
   * link's secret is returned once and kept only as a hash.
   */
  async invite(transaction: Queryable, context: WriteContext, input: { email: unknown; role: Role }): Promise<{ invitation: InvitationView; secret: string }> {
    const email = normalizedEmail(input.email, '/email');
    const secret = newSecret();
    if (await userEmailTaken(transaction, context.organizationId, email)) throw authErrors.alreadyAUser(email);
    const created = await insertInvitation(transaction, {
      id: randomUUID(),
      organizationId: context.organizationId,
      email,
      role: input.role,
      secretHash: secretHash(secret),
      createdBy: context.actor,
      lifetimeSeconds: INVITATION_LIFETIME_SECONDS,
    });
    await appendAuditEvents(transaction, { ...context, note: null }, [userEvent('user.invited', null, { email, role: input.role, invitationId: created.id })]);
    return { invitation: invitationView(created), secret };
  }

  /** What an invitation link is for, so that the page can greet the person (without accepting it). */
  async describeInvitation(secret: string): Promise<InvitationView> {
    return this.database.transaction(async (transaction) => invitationView(await this.openInvitation(transaction, secret)));
  }

  /** Accepts an invitation: the user is created with the password chosen, and signed in. */
  async acceptInvitation(secret: string, input: { password: unknown; address: string; userAgent: string | null }): Promise<SignedIn> {
    const accepted = await this.database.transaction(async (transaction) => {
      const invitation = await this.openInvitation(transaction, secret);
      const password = checkedPassword(input.password, invitation.email, '/password');
      if (await userEmailTaken(transaction, invitation.organizationId, invitation.email)) throw authErrors.invitedAlreadyAUser(invitation.email);
      const userId = randomUUID();
      await insertInvitedUser(transaction, {
        id: userId,
        organizationId: invitation.organizationId,
        email: invitation.email,
        passwordHash: await hashPassword(password),
        role: invitation.role,
        invitedBy: invitation.createdBy,
      });
      await markInvitationAccepted(transaction, invitation.organizationId, invitation.id, userId);
      await appendAuditEvents(transaction, { organizationId: invitation.organizationId, actor: `user:${invitation.email}`, requestId: null, note: null }, [
        userEvent('user.joined', null, { userId, email: invitation.email, role: invitation.role, invitationId: invitation.id }),
      ]);
      return { email: invitation.email, organizationId: invitation.organizationId, password };
    });
    return this.signIn({
      email: accepted.email,
      password: accepted.password,
      organizationId: accepted.organizationId,
      address: input.address,
      userAgent: input.userAgent,
    });
  }

  private async openInvitation(transaction: Queryable, secret: string) {
    const invitation = await findInvitationForUpdate(transaction, secretHash(secret));
    if (invitation === undefined || invitation.revokedAt !== null) throw authErrors.invitationNotValid();
    if (invitation.acceptedAt !== null) throw authErrors.invitationUsed();
    if (invitation.expired) throw authErrors.invitationExpired();
    return invitation;
  }

  /** Changes a user's role or activity (Administrators); deactivation ends their sessions at once. */
  async updateUser(context: WriteContext & { userId?: string }, userId: string, change: { role?: Role; active?: boolean }): Promise<UserView> {
    const ended = await this.database.transaction(async (transaction) => {
      const user = await findUser(transaction, context.organizationId, userId);
      if (user === undefined) throw notFound('user', userId);
      const losesAdministrator = (change.role !== undefined && change.role !== 'Administrator') || change.active === false;
      if (user.role === 'Administrator' && losesAdministrator && (await countOtherActiveAdministrators(transaction, context.organizationId, userId)) === 0) {
        throw authErrors.lastAdministrator();
      }
      if (change.role !== undefined && change.role !== user.role) await updateUserRole(transaction, context.organizationId, userId, change.role);
      let endedSessions: string[] = [];
      if (change.active === false && user.deactivatedAt === null) {
        await deactivateUser(transaction, context.organizationId, userId, context.actor);
        endedSessions = await endUserSessions(transaction, context.organizationId, userId, 'deactivated');
      } else if (change.active === true && user.deactivatedAt !== null) {
        await reactivateUser(transaction, context.organizationId, userId);
      }
      await appendAuditEvents(transaction, { ...context, note: null }, [
        userEvent('user.updated', { role: user.role, active: user.deactivatedAt === null }, { userId, ...change }),
      ]);
      return endedSessions;
    });
    this.accessTokens.forgetSessions(context.organizationId, ended);
    return userView((await findUser(this.database, context.organizationId, userId))!);
  }
}

/**
 * A hash of a random password: compared against when the email is unknown, so that the time
 * taken is the same. Made at the first such sign-in, not when the module loads (every command
 * of the command line loads it).
 */
let unknownUserHash: Promise<string> | null = null;
function hashForUnknownUsers(): Promise<string> {
  unknownUserHash ??= hashPassword(randomBytes(16).toString('base64url'));
  return unknownUserHash;
}
