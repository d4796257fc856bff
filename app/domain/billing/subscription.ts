import { z } from 'zod'
import { emailAddress, messages } from '~/utils/validation'

/** The refusal when a workshop subscribes without a billing e-mail (spec §8). */
export const BILLING_EMAIL_REQUIRED = 'billing:errors.billingEmailRequired'

/** The billing e-mail form on /subscription. */
export const BillingEmailSchema = z.object({ billingEmail: emailAddress() })

/** One "subscribe" button per package: the package's public id. */
export const SubscribeSchema = z.object({ packageId: z.string({ error: messages.choose }).min(1, messages.choose) })

/** What the /subscription page shows of a package. */
export type PackageView = {
	id: string
	code: string
	name: string
	description: string
	priceCents: number
	currency: string
	offersPerMonth: number | null
	featured: boolean
	isFree: boolean
}

export type InvoiceView = {
	id: string
	number: number
	packageName: string
	periodStart: string
	periodEnd: string
	totalCents: number
	currency: string
	createdAt: string
	downloadUrl: string | null
}
