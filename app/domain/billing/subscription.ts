import * as z from 'zod/mini'
import { type Language } from '~/i18n/config'
import { checkbox, emailAddress, messages, preprocess, vatNumber } from '~/utils/validation'

/** The refusal when a workshop subscribes without a billing e-mail (spec §8). */
export const BILLING_EMAIL_REQUIRED = 'billing:errors.billingEmailRequired'

const blankToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value)

/**
 * The billing details form on /subscription: where invoices go, the workshop's VAT number (if it
 * has one) and whether its invoice e-mails carry the e-invoice (XML) too (decision 0110).
 */
export const BillingDetailsSchema = z.object({
	billingEmail: emailAddress(),
	vatNumber: z.pipe(
		preprocess(blankToUndefined, z.optional(vatNumber())),
		z.transform((value: string | undefined) => value ?? null),
	),
	wantsEInvoice: checkbox(),
})

export type BillingDetails = z.infer<typeof BillingDetailsSchema>

/** One "subscribe" button per package: the package's public id. */
export const SubscribeSchema = z.object({ packageId: z.string({ error: messages.choose }).check(z.minLength(1, messages.choose)) })

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
	/** The workshop's package now. */
	isCurrent: boolean
	/** It may subscribe to it: any other package, or its own once it has cancelled it (to resume). */
	canChoose: boolean
}

/** A workshop may subscribe to any package but the one it is on, unless it has cancelled that one (a resume). */
export function canSubscribeTo(current: { packageId: string; cancelAtPeriodEnd: boolean } | null | undefined, packageId: string) {
	return current?.packageId !== packageId || current.cancelAtPeriodEnd
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
	/** The e-invoice (UBL XML) of it: /subscription/invoices/{number}.xml. */
	eInvoiceUrl: string
}

/** Where an invoice's e-invoice (EN 16931 UBL XML) is downloaded; its file name is `invoice-{number}.xml`. */
export const eInvoicePath = (number: number) => `/subscription/invoices/${number}.xml`

type PackageTexts = { nameEt: string; nameEn: string; nameRu: string; descriptionEt: string; descriptionEn: string; descriptionRu: string }

/** A package's name in a language, as the packages table has it. */
export const packageName = (pkg: PackageTexts, language: Language) => (language === 'en' ? pkg.nameEn : language === 'ru' ? pkg.nameRu : pkg.nameEt)
/** A package's description in a language. */
export const packageDescription = (pkg: PackageTexts, language: Language) =>
	language === 'en' ? pkg.descriptionEn : language === 'ru' ? pkg.descriptionRu : pkg.descriptionEt
