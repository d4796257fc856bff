/**
 * One fuzz file's world: the production build serving this file's fresh database with the demo
 * data, the demo people signed in through the real login form (each with their cookies and CSRF
 * token), JSON API tokens, and the demo ids.
 */
import { sql } from 'drizzle-orm'
import { db, queryRows } from '~/db/db.server'
import { demoData } from '#tests/support/demo-data'
import { DEMO, DEMO_PASSWORD, loadDemo, type Demo } from './demo'
import { apiToken, keepCookies, newPersona, send, signIn, useOrigin, visit, type Persona } from './http'
import { confirmSession } from '~/domain/accounts/accounts.server'
import { findUserByToken } from '~/utils/auth.server'
import { createCookieSessionStorage } from 'react-router'
import { SESSION_COOKIE } from '~/utils/http-cache'
import { startServer, type RunningServer } from './server'

export type World = {
	server: RunningServer
	demo: Demo
	anonymous: Persona
	/** Another anonymous visitor: their CSRF token is not the others'. */
	stranger: Persona
	customer: Persona
	workshop: Persona
	admin: Persona
}

export async function setUpWorld(): Promise<World> {
	// The demo data from the run's template; the server's start then finds it there.
	await demoData()
	const server = await startServer()
	useOrigin(server.origin)
	const demo = await loadDemo()

	const anonymous = newPersona('anonymous')
	await visit(anonymous, '/login')
	// The honeypot fields are on the public forms that have them (register, contact).
	await visit(anonymous, '/contact-us')
	if (!anonymous.honeypot.length) throw new Error('GET /contact-us has no honeypot fields')

	const stranger = newPersona('anonymous')
	await visit(stranger, '/login')

	const customer = await signIn(newPersona('customer'), DEMO.customer, DEMO_PASSWORD)
	const workshop = await signIn(newPersona('workshop'), DEMO.workshop, DEMO_PASSWORD)
	const admin = await confirmAdministrator(await signIn(newPersona('admin'), DEMO.admin, DEMO_PASSWORD))
	customer.bearer = await apiToken(DEMO.customer, DEMO_PASSWORD)
	workshop.bearer = await apiToken(DEMO.workshop, DEMO_PASSWORD)
	return { server, demo, anonymous, stranger, customer, workshop, admin }
}

/**
 * The administrator's sign-in confirmed by a second factor, as every /admin page and form asks
 * (decision 0156). The fuzz server's address is an IP (no passkeys there) and it has no eID
 * provider: the session is confirmed by the portal's own step-up, `confirmSession` (what
 * /admin/verify does once a passkey's answer is checked), and the new token goes into the person's
 * cookie, as the step-up page's answer would put it.
 */
async function confirmAdministrator(persona: Persona) {
	// The server's cookie, read and written with its secret (this process's own storage may have been made before the server set it).
	const storage = createCookieSessionStorage({ cookie: { name: SESSION_COOKIE, path: '/', httpOnly: true, sameSite: 'lax', secrets: [process.env.SESSION_SECRET!] } })
	const cookie = [...persona.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
	const session = await storage.getSession(cookie)
	const user = await findUserByToken(String(session.get('token')), 'web')
	if (!user) throw new Error('the administrator is not signed in')
	session.set('token', await confirmSession({ userId: user.id, sessionId: user.sessionId }, 'passkey'))
	keepCookies(persona, new Headers({ 'Set-Cookie': await storage.commitSession(session) }))
	await visit(persona, '/admin')
	return persona
}

/** A second, separate sign-in (for logout: a wrongly accepted logout must not end the others' sessions). */
export async function separateSession(email: string, name: Persona['name']) {
	const persona = await signIn(newPersona(name), email, DEMO_PASSWORD)
	persona.bearer = await apiToken(email, DEMO_PASSWORD)
	return persona
}

/** A password-reset link's token, through the real form: the e-mail waits in the outbox (no worker runs). */
export async function resetToken(anonymous: Persona, email: string) {
	const answer = await send({
		method: 'POST',
		path: '/forget-password',
		as: anonymous,
		body: { kind: 'urlencoded', pairs: [['csrf', anonymous.csrf], ['email', email]] },
	})
	if (answer.status !== 302) throw new Error(`POST /forget-password answered ${answer.status}: ${answer.text.slice(0, 200)}`)
	const [mail] = await queryRows<{ text: string }>(db, sql`select text from email_outbox where "to" = ${email} order by created_at desc limit 1`)
	const token = mail?.text.match(/\/reset-password\/([^?\s]+)/)?.[1]
	if (!token) throw new Error(`no reset link was queued for ${email}`)
	return token
}

/** A pending test payment of the demo workshop (billing e-mail, then the paid package), through its forms. */
export async function pendingTestPayment(workshop: Persona, paidPackageSlug: string) {
	const post = (pairs: Array<[string, string]>) =>
		send({ method: 'POST', path: '/subscription', as: workshop, body: { kind: 'urlencoded', pairs: [['csrf', workshop.csrf], ...pairs] } })
	const saved = await post([['intent', 'billingEmail'], ['billingEmail', 'billing@example.com']])
	if (saved.status !== 302) throw new Error(`saving the billing e-mail answered ${saved.status}`)
	const started = await post([['packageId', paidPackageSlug]])
	const slug = started.location?.match(/\/subscription\/test-payment\/([^/?#]+)/)?.[1]
	if (!slug) throw new Error(`subscribing to the paid package answered ${started.status} ${started.location ?? ''}: ${started.text.slice(0, 200)}`)
	return slug
}
