import { sql } from 'drizzle-orm'
import { listedWorkshop } from '~/db/sql'
import { db, queryRows } from '~/db/db.server'

/**
 * A new workshop's way to being found (issue 16, onboarding): the parts of its profile customers
 * and the marketplace use, whether each is done, where to do it, and what the essential ones
 * unlock. Being listed needs an address (`listedWorkshop`); receiving requests needs services
 * (`requestMatchesWorkshop`). One query.
 */
export const profileStepKeys = ['services', 'address', 'brands', 'hours', 'logo', 'photos', 'billingEmail'] as const
export type ProfileStepKey = (typeof profileStepKeys)[number]

const stepLinks: Record<ProfileStepKey, string> = {
	services: '/workshop-profile#profile-offer',
	address: '/workshop-profile#profile-contact',
	brands: '/workshop-profile#profile-offer',
	hours: '/workshop-profile#profile-hours',
	logo: '/workshop-profile#profile-images',
	photos: '/workshop-profile#profile-images',
	billingEmail: '/subscription',
}

export type ProfileSteps = {
	steps: Array<{ key: ProfileStepKey; done: boolean; href: string }>
	doneCount: number
	listed: boolean
	receivesRequests: boolean
}

export async function workshopProfileSteps(workshopId: string): Promise<ProfileSteps> {
	const [row] = await queryRows<Record<ProfileStepKey, boolean> & { listed: boolean }>(
		db,
		sql`select exists (select 1 from workshop_services s where s.workshop_id = w.id) as services,
		           (w.city_id is not null and w.street_name <> '') as address,
		           exists (select 1 from workshop_car_brands b where b.workshop_id = w.id) as brands,
		           (w.weekday_opens is not null or w.saturday_opens is not null or w.sunday_opens is not null) as hours,
		           w.logo_upload_id is not null as logo,
		           exists (select 1 from workshop_photos p where p.workshop_id = w.id) as photos,
		           coalesce(w.billing_email, '') <> '' as "billingEmail",
		           ${listedWorkshop} as listed
		    from workshops w where w.id = ${workshopId}`,
	)
	const steps = profileStepKeys.map((key) => ({ key, done: Boolean(row?.[key]), href: stepLinks[key] }))
	return {
		steps,
		doneCount: steps.filter((step) => step.done).length,
		listed: Boolean(row?.listed),
		receivesRequests: Boolean(row?.services),
	}
}
