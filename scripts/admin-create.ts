/**
 * `npm run admin:create -- <email>`: makes the account with this e-mail an administrator, or
 * creates one with a generated password (printed once; change it in the settings after logging in).
 */
import { z } from 'zod'
import { createOrPromoteAdmin } from '~/domain/accounts/accounts.server'
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
} finally {
	await closeDatabase()
}
