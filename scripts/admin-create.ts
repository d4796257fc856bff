/**
 * `npm run admin:create -- <email>`: makes the account with this e-mail an administrator, or
 * creates one with a generated password (printed once; change it in the settings after logging in).
 * It also prints a one-time enrolment link (24 hours): an administrator needs a second factor for
 * /admin (eID or a passkey, decision 0156), and a session opened by the password adds its first one
 * only through such a link (or one e-mailed from the step-up page).
 */
import { z } from 'zod'
import { createOrPromoteAdmin } from '~/domain/accounts/accounts.server'
import { PRINTED_LINK_HOURS, printedEnrolmentLink } from '~/domain/accounts/step-up.server'
import { migrateDatabase } from '~/db/migrate.server'
import { closeDatabase, getConnection } from '~/db/db.server'

const email = z.email().safeParse(process.argv[2]?.trim().toLowerCase())
if (!email.success) {
	console.error('Usage: npm run admin:create -- <email>')
	process.exit(2)
}
try {
	await migrateDatabase()
	const result = await createOrPromoteAdmin(email.data)
	console.log(
		result.created
			? `Created administrator ${email.data} in ${getConnection().target}. Password: ${result.password}`
			: `${email.data} is now an administrator (${getConnection().target}).`,
	)
	try {
		const link = printedEnrolmentLink(result.userId)
		console.log(
			`The administration asks for a second factor (eID or a passkey). Log in with the password, then open this link in the same browser ` +
				`within ${PRINTED_LINK_HOURS} hours to add one (it works once):\n${link}`,
		)
	} catch (error) {
		// The link is signed with the portal's session secret: without it here, the step-up page e-mails one instead.
		console.log(`No enrolment link printed (${error instanceof Error ? error.message.split('.')[0] : String(error)}): after logging in, /admin/verify e-mails one to ${email.data}.`)
	}
} finally {
	await closeDatabase()
}
