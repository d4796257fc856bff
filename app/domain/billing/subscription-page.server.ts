import { and, asc, desc, eq, isNull } from 'drizzle-orm'
import { invoices, packages, subscriptions, workshops } from '~/db/schema'
import { type Language } from '~/i18n/config'
import { db } from '~/db/db.server'
import { encodeId } from '~/utils/public-id'
import { uploadUrl } from '~/uploads/upload-url'
import { notFound } from '~/utils/errors'
import { offerAllowance } from '~/domain/service-flow/offers.server'
import { vatRateBasisPoints } from './invoices.server'
import { canSubscribeTo, eInvoicePath, packageDescription, packageName, type InvoiceView, type PackageView } from './subscription'
import { type OfferAllowance } from './allowance'

/**
 * What /subscription shows (the packages, the workshop's own, its invoices, its billing details)
 * and the offer allowance notice of the workshop's request pages: read only.
 */

/**
 * A workshop's offers this month against its package's limit, and, when it has one, the package
 * that lifts it (the notice on the workshop's request pages).
 */
export async function offerAllowanceNotice(workshopId: string, language: Language): Promise<OfferAllowance> {
	const allowance = await offerAllowance(workshopId)
	return { ...allowance, upgradeTo: allowance.limit === null ? null : await unlimitedPackageName(language) }
}

/**
 * The name of the package that lifts the monthly offer limit (the cheapest unlimited one), as the
 * packages table has it: "More with …" says the one name the subscription page shows.
 */
export async function unlimitedPackageName(language: Language): Promise<string | null> {
	const [pkg] = await db
		.select()
		.from(packages)
		.where(and(eq(packages.active, true), isNull(packages.offersPerMonth)))
		.orderBy(asc(packages.priceCents))
		.limit(1)
	return pkg ? packageName(pkg, language) : null
}

export type SubscriptionPage = {
	billingEmail: string | null
	vatNumber: string | null
	wantsEInvoice: boolean
	current: {
		packageId: string
		name: string
		isFree: boolean
		periodStart: string | null
		periodEnd: string | null
		cancelAtPeriodEnd: boolean
	} | null
	packages: PackageView[]
	invoices: InvoiceView[]
	vatRatePercent: number
}

export async function loadSubscriptionPage(workshopId: string, language: Language): Promise<SubscriptionPage> {
	const [workshop] = await db
		.select({ billingEmail: workshops.billingEmail, vatNumber: workshops.vatNumber, wantsEInvoice: workshops.wantsEInvoice })
		.from(workshops)
		.where(eq(workshops.id, workshopId))
	if (!workshop) throw notFound()
	const list = await db.select().from(packages).where(eq(packages.active, true)).orderBy(asc(packages.sortOrder), asc(packages.priceCents))
	const [current] = await db
		.select({ sub: subscriptions, pkg: packages })
		.from(subscriptions)
		.innerJoin(packages, eq(packages.id, subscriptions.packageId))
		.where(and(eq(subscriptions.workshopId, workshopId), eq(subscriptions.status, 'active')))
	const rows = await db.select().from(invoices).where(eq(invoices.workshopId, workshopId)).orderBy(desc(invoices.number))
	return {
		billingEmail: workshop.billingEmail,
		vatNumber: workshop.vatNumber,
		wantsEInvoice: workshop.wantsEInvoice,
		current: current
			? {
					packageId: encodeId(current.pkg.id),
					name: packageName(current.pkg, language),
					isFree: current.pkg.priceCents === 0,
					periodStart: current.sub.periodStart?.toISOString() ?? null,
					periodEnd: current.sub.periodEnd?.toISOString() ?? null,
					cancelAtPeriodEnd: current.sub.cancelAtPeriodEnd,
				}
			: null,
		packages: list.map((pkg) => ({
			id: encodeId(pkg.id),
			code: pkg.code,
			name: packageName(pkg, language),
			description: packageDescription(pkg, language),
			priceCents: pkg.priceCents,
			currency: pkg.currency,
			offersPerMonth: pkg.offersPerMonth,
			featured: pkg.featured,
			isFree: pkg.priceCents === 0,
			isCurrent: current?.pkg.id === pkg.id,
			canChoose: canSubscribeTo(current && { packageId: current.pkg.id, cancelAtPeriodEnd: current.sub.cancelAtPeriodEnd }, pkg.id),
		})),
		invoices: rows.map((row) => ({
			id: encodeId(row.id),
			number: row.number,
			packageName: row.packageName,
			periodStart: row.periodStart.toISOString(),
			periodEnd: row.periodEnd.toISOString(),
			totalCents: row.totalCents,
			currency: row.currency,
			createdAt: row.createdAt.toISOString(),
			downloadUrl: row.pdfUploadId ? uploadUrl(row.pdfUploadId) : null,
			eInvoiceUrl: eInvoicePath(row.number),
		})),
		vatRatePercent: (await vatRateBasisPoints(db)) / 100,
	}
}
