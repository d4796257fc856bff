/**
 * The demo data, in one module that grows as features land (README: "Demo accounts").
 * Loaded into an empty embedded database at first start, and into a server with `npm run db:seed`.
 *
 * The story: customer@example.com (Mari Tamm) has three vehicles and a request in every status;
 * workshop@example.com (Kask Autoteenindus) has offers on them that are pending, selected,
 * completed and reviewed (and one rejected elsewhere); both have read and unread notifications and
 * a chat with each other. Every review belongs to a real completed request, so ratings add up.
 */
import { randomUUID } from 'node:crypto'
import { count, sql } from 'drizzle-orm'
import * as t from '~/db/schema'
import { db as defaultDb, type DbOrTx } from '~/utils/db.server'
import { hashPassword } from '~/utils/password.server'
import { storeUpload } from '~/utils/storage.server'
import { demoContentPages } from './content-pages'
import { adBanner, siteLogo, workshopLogo, workshopPhoto } from './demo-images.server'
import {
	demoCarBrands,
	demoCities,
	demoPaymentMethods,
	demoServices,
	demoSpareParts,
	type ReferenceRow,
} from './reference-data'

export const DEMO_PASSWORD = 'demo12345'
export const demoAccounts = {
	customer: 'customer@example.com',
	workshop: 'workshop@example.com',
	admin: 'admin@example.com',
} as const

type Tx = DbOrTx
type Ids = Map<string, string>

const DAY = 24 * 60 * 60 * 1000

/** Loads the demo data when the database holds no site settings yet; true when it did. */
export async function loadDemoDataIfEmpty(database: DbOrTx = defaultDb): Promise<boolean> {
	const [row] = await database.select({ n: count() }).from(t.siteSettings)
	if ((row?.n ?? 0) > 0) return false
	await loadDemoData(database)
	return true
}

/** Writes the whole demo data set in one transaction (pictures are stored first). */
export async function loadDemoData(database: DbOrTx = defaultDb, now = new Date()) {
	const passwordHash = await hashPassword(DEMO_PASSWORD)
	const random = seededRandom(20261121)
	await database.transaction(async (tx) => {
		const refs = await insertReferenceLists(tx)
		await insertSiteContent(tx)
		const packageIds = await insertPackages(tx)
		const people = await insertPeople(tx, passwordHash)
		const workshopIds = await insertWorkshops(tx, refs, people, now)
		await insertSubscriptions(tx, workshopIds, packageIds, now)
		await insertHistory(tx, refs, people, workshopIds, now, random)
		await insertDemoFlow(tx, refs, people, workshopIds, now)
		await insertInboxAndVisits(tx, now, random)
	})
}

// ---------------------------------------------------------------- reference lists

type ReferenceIds = Record<'services' | 'brands' | 'parts' | 'payments' | 'cities', Ids>

async function insertReferenceLists(tx: Tx): Promise<ReferenceIds> {
	const insert = async (table: t.ReferenceTable, rows: ReferenceRow[]) => {
		const ids: Ids = new Map()
		const values = rows.map(([code, nameEt, nameEn, nameRu], sortOrder) => {
			const id = randomUUID()
			ids.set(code, id)
			return { id, code, nameEt, nameEn, nameRu, sortOrder }
		})
		await tx.insert(table).values(values)
		return ids
	}
	return {
		services: await insert(t.services, demoServices),
		brands: await insert(t.carBrands, demoCarBrands),
		parts: await insert(t.spareParts, demoSpareParts),
		payments: await insert(t.paymentMethods, demoPaymentMethods),
		cities: await insert(t.cities, demoCities),
	}
}

// ---------------------------------------------------------------- site settings, pages, ads

async function insertSiteContent(tx: Tx) {
	const logo = await storeUpload(tx, { bytes: await siteLogo(256), purpose: 'site_logo', originalName: 'logo.png' })
	const favicon = await storeUpload(tx, { bytes: await siteLogo(64), purpose: 'site_favicon', originalName: 'favicon.png' })
	await tx.insert(t.siteSettings).values({
		appname: 'Autohub',
		logoUploadId: logo.id,
		faviconUploadId: favicon.id,
		siteAddress: 'Narva Road 7, 10117 Tallinn, Estonia',
		siteAddressEstonian: 'Narva mnt 7, 10117 Tallinn, Eesti',
		siteAddressRussian: 'Нарвское шоссе 7, 10117 Таллин, Эстония',
		siteEmail: 'info@autohub.example',
		countryCode: '+372',
		sitePhoneNumber: '600 1234',
		facebookLink: 'https://www.facebook.com/autohub.example',
		twitterLink: 'https://twitter.com/autohub_example',
		instagramLink: 'https://www.instagram.com/autohub.example',
		linkedinLink: 'https://www.linkedin.com/company/autohub-example',
		companyName: 'Autohub OÜ',
		companyRegistryCode: '16000001',
		vatNumber: 'EE102000001',
		vatRateBasisPoints: 2400,
	})

	await tx.insert(t.contentPages).values(
		Object.entries(demoContentPages).flatMap(([slug, byLanguage]) =>
			Object.entries(byLanguage).map(([language, page]) => ({
				slug,
				language: language as t.ContentLanguage,
				title: page.title,
				bodyHtml: page.bodyHtml,
			})),
		),
	)

	const banner = await storeUpload(tx, { bytes: await adBanner(), purpose: 'ad_image', originalName: 'banner.webp' })
	await tx.insert(t.ads).values([
		{
			adsType: 2,
			placement: 'Header',
			content:
				'<p><strong>Talverehvid / Winter tyres / Зимние шины</strong> — <a href="/workshop-list?service=tyres">Broneeri aeg · Book now · Записаться</a></p>',
			sortOrder: 0,
		},
		{ adsType: 1, placement: 'Footer', imageUploadId: banner.id, adsLink: '/workshop-list?service=maintenance', sortOrder: 0 },
	])
}

// ---------------------------------------------------------------- packages

async function insertPackages(tx: Tx) {
	const free = randomUUID()
	const pro = randomUUID()
	await tx.insert(t.packages).values([
		{
			id: free,
			code: 'free',
			nameEt: 'Tasuta',
			nameEn: 'Free',
			nameRu: 'Бесплатный',
			descriptionEt: 'Avalik profiil ja kuni 5 pakkumist kuus.',
			descriptionEn: 'A public profile and up to 5 offers a month.',
			descriptionRu: 'Публичный профиль и до 5 предложений в месяц.',
			priceCents: 0,
			offersPerMonth: 5,
			featured: false,
			sortOrder: 0,
		},
		{
			id: pro,
			code: 'pro',
			nameEt: 'Pro',
			nameEn: 'Pro',
			nameRu: 'Pro',
			descriptionEt: 'Piiramatult pakkumisi, esikohad kataloogis ja avalehel, Pro-märk profiilil.',
			descriptionEn: 'Unlimited offers, top places in the directory and on the home page, a Pro badge on your profile.',
			descriptionRu: 'Неограниченные предложения, первые места в каталоге и на главной, значок Pro в профиле.',
			priceCents: 2900,
			offersPerMonth: null,
			featured: true,
			sortOrder: 1,
		},
	])
	return { free, pro }
}

// ---------------------------------------------------------------- people

type Person = { id: string; firstName: string; lastName: string }
type People = {
	customer: Person
	workshopOwner: Person
	admin: Person
	reviewers: Person[]
	owners: Person[]
}

const reviewerNames: Array<[string, string]> = [
	['Kadri', 'Saar'],
	['Andres', 'Mets'],
	['Olga', 'Ivanova'],
	['Tõnu', 'Lepp'],
	['Liis', 'Kuusk'],
	['Dmitri', 'Smirnov'],
	['Kristjan', 'Rebane'],
	['Anu', 'Põder'],
]

async function insertPeople(tx: Tx, passwordHash: string): Promise<People> {
	const person = (firstName: string, lastName: string): Person => ({ id: randomUUID(), firstName, lastName })
	const people: People = {
		customer: person('Mari', 'Tamm'),
		workshopOwner: person('Jaan', 'Kask'),
		admin: person('Admin', 'Autohub'),
		reviewers: reviewerNames.map(([first, last]) => person(first, last)),
		owners: demoWorkshops.slice(1).map((w) => person(w.contact[0], w.contact[1])),
	}
	const ascii = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
	await tx.insert(t.users).values([
		{ ...people.customer, email: demoAccounts.customer, role: 'customer', mobile: '+372 5123 4567', passwordHash },
		{ ...people.workshopOwner, email: demoAccounts.workshop, role: 'workshop', mobile: '+372 5234 5678', passwordHash },
		{ ...people.admin, email: demoAccounts.admin, role: 'admin', mobile: '+372 600 1234', passwordHash },
		...people.reviewers.map((p, i) => ({
			...p,
			email: `${ascii(p.firstName)}.${ascii(p.lastName)}@example.com`,
			role: 'customer' as const,
			mobile: `+372 58${String(100000 + i * 7919).slice(0, 6)}`,
			passwordHash,
		})),
		...people.owners.map((p, i) => ({
			...p,
			email: `owner@${demoWorkshops[i + 1]!.slug}.example`,
			role: 'workshop' as const,
			mobile: `+372 55${String(200000 + i * 4513).slice(0, 6)}`,
			passwordHash,
		})),
	])
	return people
}

// ---------------------------------------------------------------- workshops

type DemoWorkshop = {
	slug: string
	name: string
	company: string
	contact: [string, string]
	city: string
	state: string
	street: string
	zip: string
	services: string[]
	brands: string[]
	pro?: boolean
	saturday?: boolean
	founded: number
	installers: number
	marketing: string
}

const allBrands = demoCarBrands.map(([code]) => code)

/** The first is workshop@example.com's; the rest belong to their own owners. */
export const demoWorkshops: DemoWorkshop[] = [
	{
		slug: 'kask-autoteenindus',
		name: 'Kask Autoteenindus',
		company: 'Kask Autoteenindus OÜ',
		contact: ['Jaan', 'Kask'],
		city: 'tallinn',
		state: 'Harju maakond',
		street: 'Peterburi tee 46',
		zip: '11415',
		services: ['maintenance', 'oil-change', 'diagnostics', 'brakes', 'tyres', 'suspension', 'wheel-alignment', 'air-conditioning', 'inspection-prep', 'bodywork'],
		brands: ['toyota', 'volkswagen', 'skoda', 'audi', 'ford', 'kia', 'hyundai', 'opel', 'mazda'],
		saturday: true,
		founded: 2009,
		installers: 8,
		marketing:
			'Pereettevõte Lasnamäel, kus autosid on hooldatud juba üle 15 aasta. Teeme hoolduse, pidurid, veermiku ja rehvitööd ühe visiidiga ning anname kõikidele töödele garantii. Ootealas on kohv ja Wi-Fi.',
	},
	{
		slug: 'tallinna-rehvikeskus',
		name: 'Tallinna Rehvikeskus',
		company: 'Rehvikeskus AS',
		contact: ['Marko', 'Kivi'],
		city: 'tallinn',
		state: 'Harju maakond',
		street: 'Pärnu mnt 139',
		zip: '11317',
		services: ['tyres', 'wheel-alignment', 'suspension', 'brakes'],
		brands: allBrands,
		pro: true,
		saturday: true,
		founded: 2004,
		installers: 14,
		marketing:
			'Rehvivahetus ilma pika ootamiseta: 6 tõstukit, rehvihotell 4000 komplektile ja 3D sillastend. Broneeri aeg ja oled tunniga tagasi teel.',
	},
	{
		slug: 'tartu-autoremont',
		name: 'Tartu Autoremont',
		company: 'Tartu Autoremont OÜ',
		contact: ['Priit', 'Org'],
		city: 'tartu',
		state: 'Tartu maakond',
		street: 'Ringtee 35',
		zip: '50105',
		services: ['maintenance', 'engine', 'timing-belt', 'transmission', 'diagnostics', 'electrical', 'oil-change'],
		brands: ['volkswagen', 'audi', 'skoda', 'seat', 'bmw', 'mercedes-benz', 'opel', 'ford'],
		pro: true,
		founded: 1998,
		installers: 11,
		marketing:
			'Mootori- ja käigukastiremont Lõuna-Eestis. VAG-grupi autode diagnostika originaaltarkvaraga, hammasrihmade komplektid laos.',
	},
	{
		slug: 'narva-autoservis',
		name: 'Narva Autoservis',
		company: 'NRV Service OÜ',
		contact: ['Sergei', 'Petrov'],
		city: 'narva',
		state: 'Ida-Viru maakond',
		street: 'Tallinna mnt 22',
		zip: '20303',
		services: ['maintenance', 'oil-change', 'brakes', 'suspension', 'engine', 'bodywork', 'exhaust'],
		brands: ['toyota', 'nissan', 'mitsubishi', 'lexus', 'honda', 'mazda', 'hyundai', 'kia', 'renault', 'dacia'],
		saturday: true,
		founded: 2011,
		installers: 6,
		marketing:
			'Автосервис в центре Нарвы: ТО, тормоза, подвеска и ремонт двигателя японских и корейских автомобилей. Говорим по-русски, по-эстонски и по-английски.',
	},
	{
		slug: 'parnu-kereremont',
		name: 'Pärnu Kereremont',
		company: 'Pärnu Kere OÜ',
		contact: ['Tiit', 'Raud'],
		city: 'parnu',
		state: 'Pärnu maakond',
		street: 'Tallinna mnt 89',
		zip: '80042',
		services: ['bodywork', 'painting', 'glass', 'detailing'],
		brands: allBrands,
		founded: 2007,
		installers: 5,
		marketing: 'Kahjukäsitlus kõigi kindlustusseltsidega, värvikamber ja mõlgiparandus ilma värvimiseta.',
	},
	{
		slug: 'ev-garaaz',
		name: 'EV Garaaž',
		company: 'Elektriline Garaaž OÜ',
		contact: ['Kaspar', 'Luik'],
		city: 'tallinn',
		state: 'Harju maakond',
		street: 'Kadaka tee 72',
		zip: '12618',
		services: ['ev-service', 'electrical', 'diagnostics', 'air-conditioning', 'tyres', 'brakes'],
		brands: ['tesla', 'nissan', 'hyundai', 'kia', 'volkswagen', 'bmw', 'renault', 'volvo'],
		pro: true,
		founded: 2018,
		installers: 4,
		marketing:
			'Electric and hybrid specialists: high-voltage battery diagnostics, heat pump service and brake care for cars that brake with their motor. English spoken.',
	},
	{
		slug: 'viljandi-autokeskus',
		name: 'Viljandi Autokeskus',
		company: 'Viljandi Autokeskus OÜ',
		contact: ['Meelis', 'Sepp'],
		city: 'viljandi',
		state: 'Viljandi maakond',
		street: 'Riia mnt 27',
		zip: '71011',
		services: ['maintenance', 'oil-change', 'tyres', 'inspection-prep', 'exhaust', 'brakes'],
		brands: allBrands,
		saturday: true,
		founded: 2002,
		installers: 7,
		marketing: 'Kõik ühest kohast: hooldus, rehvid, summutid ja ülevaatuseks ettevalmistus. Töötame ka laupäeviti.',
	},
	{
		slug: 'rakvere-diagnostikakeskus',
		name: 'Rakvere Diagnostikakeskus',
		company: 'RD Keskus OÜ',
		contact: ['Rasmus', 'Tamme'],
		city: 'rakvere',
		state: 'Lääne-Viru maakond',
		street: 'Haljala tee 6',
		zip: '44311',
		services: ['diagnostics', 'electrical', 'engine', 'air-conditioning'],
		brands: ['bmw', 'mercedes-benz', 'audi', 'volkswagen', 'volvo', 'ford', 'opel', 'peugeot', 'citroen'],
		founded: 2014,
		installers: 3,
		marketing: 'Veakoodid, elektririkked ja kliimaseadmed. Leiame rikke enne, kui vahetame varuosi.',
	},
	{
		slug: 'mustamae-autoklaas',
		name: 'Mustamäe Autoklaas',
		company: 'Autoklaas OÜ',
		contact: ['Heiki', 'Kuus'],
		city: 'tallinn',
		state: 'Harju maakond',
		street: 'Mustamäe tee 16',
		zip: '10617',
		services: ['glass', 'detailing', 'bodywork'],
		brands: allBrands,
		founded: 2010,
		installers: 4,
		marketing: 'Tuuleklaaside vahetus ja kiviaukude parandus samal päeval, kindlustusega otsearveldus.',
	},
	{
		slug: 'saare-autohooldus',
		name: 'Saare Autohooldus',
		company: 'Saare Auto OÜ',
		contact: ['Urmas', 'Saar'],
		city: 'kuressaare',
		state: 'Saare maakond',
		street: 'Tallinna 61',
		zip: '93815',
		services: ['maintenance', 'tyres', 'brakes', 'exhaust', 'suspension', 'oil-change'],
		brands: allBrands,
		saturday: true,
		founded: 2005,
		installers: 5,
		marketing: 'Saaremaa suurim üldremonditöökoda. Suvel pikendatud lahtiolekuajad.',
	},
	{
		slug: 'johvi-kaigukastid',
		name: 'Jõhvi Käigukastid',
		company: 'JK Transmissioon OÜ',
		contact: ['Aleksei', 'Volkov'],
		city: 'johvi',
		state: 'Ida-Viru maakond',
		street: 'Rakvere 35',
		zip: '41531',
		services: ['transmission', 'timing-belt', 'engine'],
		brands: ['volkswagen', 'audi', 'skoda', 'ford', 'opel', 'toyota', 'bmw'],
		founded: 2013,
		installers: 3,
		marketing:
			'Ремонт механических и автоматических коробок передач, DSG и вариаторов. Гарантия 12 месяцев на все работы.',
	},
	{
		slug: 'premium-auto-service',
		name: 'Premium Auto Service Tallinn',
		company: 'PAS Tallinn OÜ',
		contact: ['Karl', 'Vaher'],
		city: 'tallinn',
		state: 'Harju maakond',
		street: 'Sõpruse pst 153',
		zip: '13417',
		services: ['maintenance', 'diagnostics', 'painting', 'detailing', 'air-conditioning', 'brakes'],
		brands: ['bmw', 'mercedes-benz', 'audi', 'lexus', 'volvo', 'tesla'],
		pro: true,
		founded: 2016,
		installers: 9,
		marketing:
			'Premium-autode hooldus tootja nõuete järgi, hooldusraamatu kanded ja asendusauto hoolduse ajaks.',
	},
]

async function insertWorkshops(
	tx: Tx,
	refs: ReferenceIds,
	people: People,
	now: Date,
): Promise<string[]> {
	const ids: string[] = []
	for (const [index, w] of demoWorkshops.entries()) {
		const owner = index === 0 ? people.workshopOwner : people.owners[index - 1]!
		const id = randomUUID()
		ids.push(id)
		const logo = await storeUpload(tx, {
			bytes: await workshopLogo(index),
			purpose: 'workshop_logo',
			ownerId: owner.id,
			originalName: 'logo.webp',
		})
		const day = (offset: number, hour: number) => atHour(new Date(now.getTime() + offset * DAY), hour)
		await tx.insert(t.workshops).values({
			id,
			userId: owner.id,
			contactFirstName: w.contact[0],
			contactLastName: w.contact[1],
			companyName: w.company,
			companyId: String(1_000_000_000 + index * 7_654_321 + 123_457),
			workshopName: w.name,
			phone: `+372 6${String(100_000 + index * 1_237).slice(0, 6)}`,
			email: `info@${w.slug}.example`,
			billingEmail: `arved@${w.slug}.example`,
			website: `https://${w.slug}.example`,
			foundedYear: w.founded,
			installersCount: w.installers,
			state: w.state,
			cityId: refs.cities.get(w.city)!,
			streetName: w.street,
			zipCode: w.zip,
			marketingText: w.marketing,
			additionalServices: index % 3 === 0 ? 'Asendusauto, rehvihotell, autopesu' : index % 3 === 1 ? 'Rehvihotell' : '',
			logoUploadId: logo.id,
			weekdayOpens: '08:00',
			weekdayCloses: index % 2 ? '17:00' : '18:00',
			saturdayOpens: w.saturday ? '10:00' : null,
			saturdayCloses: w.saturday ? '15:00' : null,
			nextFreeTimes: [day(1 + (index % 2), 9), day(2 + (index % 3), 13), day(5, 10)],
			warrantyWorkKm: [10_000, 20_000, 15_000][index % 3]!,
			warrantyPartsMonths: [12, 24, 6][index % 3]!,
			warrantyInfo:
				index % 2 === 0
					? 'Garantii kehtib hooldusraamatu kande ja arve esitamisel.'
					: 'Garantii ei kata kuluvosi ega ebaõigest kasutamisest tekkinud kahjusid.',
		})
		const photoCount = 2 + (index % 2)
		for (let variant = 0; variant < photoCount; variant++) {
			const photo = await storeUpload(tx, {
				bytes: await workshopPhoto(index, variant),
				purpose: 'workshop_photo',
				ownerId: owner.id,
				originalName: `photo-${variant + 1}.webp`,
			})
			await tx.insert(t.workshopPhotos).values({ workshopId: id, uploadId: photo.id, position: variant })
		}
		const link = async (table: typeof t.workshopServices, codes: string[], from: Ids) => {
			if (codes.length) await tx.insert(table).values(codes.map((code) => ({ workshopId: id, itemId: from.get(code)! })))
		}
		await link(t.workshopServices, w.services, refs.services)
		await link(t.workshopCarBrands, w.brands, refs.brands)
		await link(
			t.workshopSpareParts,
			demoSpareParts.filter((_, i) => (index + i) % 2 === 0 || i === 0).map(([code]) => code),
			refs.parts,
		)
		await link(
			t.workshopPaymentMethods,
			demoPaymentMethods.filter((_, i) => i < 2 + (index % 4)).map(([code]) => code),
			refs.payments,
		)
	}
	return ids
}

async function insertSubscriptions(tx: Tx, workshopIds: string[], packageIds: { free: string; pro: string }, now: Date) {
	for (const [index, workshopId] of workshopIds.entries()) {
		const pro = demoWorkshops[index]!.pro === true
		const subscriptionId = randomUUID()
		await tx.insert(t.subscriptions).values({
			id: subscriptionId,
			workshopId,
			packageId: pro ? packageIds.pro : packageIds.free,
			status: 'active',
			periodStart: new Date(now.getTime() - (pro ? 10 : 90) * DAY),
			periodEnd: pro ? new Date(now.getTime() + 20 * DAY) : null,
			provider: pro ? 'test' : null,
		})
		if (pro) {
			await tx.insert(t.payments).values({
				workshopId,
				subscriptionId,
				packageId: packageIds.pro,
				provider: 'test',
				providerReference: `demo_${randomUUID()}`,
				amountCents: 3596,
				status: 'paid',
				paidAt: new Date(now.getTime() - 10 * DAY),
			})
			await tx.update(t.workshops).set({ packageRank: 1 }).where(sql`${t.workshops.id} = ${workshopId}`)
		}
	}
}

// ---------------------------------------------------------------- vehicles, requests, offers, reviews

type VehicleSpec = {
	owner: string
	brand: string
	model: string
	spec: string
	registration: string
	vin?: string
	year: number
	fuel: (typeof t.fuelTypes)[number]
	transmission: (typeof t.transmissions)[number]
	mileage: number
	description?: string
}

async function insertVehicle(tx: Tx, refs: ReferenceIds, v: VehicleSpec, createdAt: Date) {
	const id = randomUUID()
	await tx.insert(t.vehicles).values({
		id,
		ownerId: v.owner,
		registrationNumber: v.registration,
		vin: v.vin ?? null,
		shortDescription: v.description ?? '',
		vehicleYear: v.year,
		registrationYear: v.year,
		manufactureYear: v.year,
		fuelType: v.fuel,
		brandId: refs.brands.get(v.brand)!,
		model: v.model,
		modelSpecification: v.spec,
		transmission: v.transmission,
		mileage: v.mileage,
		createdAt,
	})
	return id
}

type RequestSpec = {
	customer: string
	vehicle: string
	services: string[]
	details: string
	location: string
	city: string
	createdAt: Date
	preferredAt: Date
	status: (typeof t.requestStatuses)[number]
}

async function insertRequest(tx: Tx, refs: ReferenceIds, r: RequestSpec) {
	const id = randomUUID()
	await tx.insert(t.serviceRequests).values({
		id,
		customerId: r.customer,
		vehicleId: r.vehicle,
		preferredAt: r.preferredAt,
		location: r.location,
		cityId: refs.cities.get(r.city) ?? null,
		details: r.details,
		status: r.status,
		createdAt: r.createdAt,
		updatedAt: r.createdAt,
	})
	await tx.insert(t.serviceRequestServices).values(r.services.map((code) => ({ requestId: id, serviceId: refs.services.get(code)! })))
	await tx.insert(t.requestEvents).values({ requestId: id, status: 'pending', actorId: r.customer, createdAt: r.createdAt })
	return id
}

type OfferSpec = {
	request: string
	workshop: string
	price: number
	status: (typeof t.offerStatuses)[number]
	createdAt: Date
	notes?: string
	description?: string
	finalPrice?: number
	selectedAt?: Date
	completedAt?: Date
}

async function insertOffer(tx: Tx, o: OfferSpec) {
	const id = randomUUID()
	await tx.insert(t.offers).values({
		id,
		requestId: o.request,
		workshopId: o.workshop,
		priceCents: o.price * 100,
		notes: o.notes ?? '',
		description: o.description ?? '',
		status: o.status,
		finalPriceCents: o.finalPrice ? o.finalPrice * 100 : null,
		selectedAt: o.selectedAt ?? null,
		completedAt: o.completedAt ?? null,
		createdAt: o.createdAt,
		updatedAt: o.completedAt ?? o.selectedAt ?? o.createdAt,
	})
	return id
}

/** Moves a request through its statuses with the timeline a real flow would leave. */
async function advanceRequest(
	tx: Tx,
	requestId: string,
	steps: Array<{ status: (typeof t.requestStatuses)[number]; at: Date; actor: string | null }>,
	selectedOfferId?: string,
) {
	for (const step of steps) {
		await tx.insert(t.requestEvents).values({ requestId, status: step.status, actorId: step.actor, createdAt: step.at })
	}
	const last = steps.at(-1)!
	await tx
		.update(t.serviceRequests)
		.set({ status: last.status, selectedOfferId: selectedOfferId ?? null, updatedAt: last.at })
		.where(sql`${t.serviceRequests.id} = ${requestId}`)
}

const reviewTexts: Array<{ rating: number; title: string; body: string; reply?: string }> = [
	{ rating: 5, title: 'Kiire ja korralik töö', body: 'Auto sai tehtud kokkulepitud ajaks ja hind oli täpselt see, mis pakkumises. Soovitan!', reply: 'Aitäh, Teid on alati hea meel näha!' },
	{ rating: 5, title: 'Super teenindus', body: 'Selgitati põhjalikult, mis oli katki ja miks. Vahetatud osad näidati ette.' },
	{ rating: 4, title: 'Hea töö, väike viivitus', body: 'Töö kvaliteet hea, aga auto sai valmis tund hiljem kui lubatud.', reply: 'Vabandame viivituse pärast, varuosa saabus hiljem. Järgmine kord anname aegsasti teada.' },
	{ rating: 5, title: 'Great service in English', body: 'Friendly team, clear explanation of the fault and a fair price. Will come back for the winter tyres.' },
	{ rating: 4, title: 'Хороший сервис', body: 'Сделали быстро, цена соответствует предложению. Немного пришлось подождать в очереди.', reply: 'Спасибо за отзыв! Ждём вас снова.' },
	{ rating: 3, title: 'Keskmine', body: 'Töö sai tehtud, kuid suhtlus võiks olla parem. Pidin ise mitu korda helistama.' },
	{ rating: 5, title: 'Отличная работа', body: 'Нашли причину неисправности, которую не могли найти в двух других сервисах. Рекомендую.' },
	{ rating: 4, title: 'Fair price', body: 'The offer was the lowest of three and the work was done well. Waiting area could be nicer.' },
	{ rating: 5, title: 'Väga rahul', body: 'Broneerimine läbi portaali oli lihtne ning töökoda võttis kohe ühendust.', reply: 'Täname tagasiside eest!' },
	{ rating: 2, title: 'Ei jäänud rahule', body: 'Hind kasvas töö käigus ja sellest ei teavitatud ette.', reply: 'Kahju kuulda. Võtsime Teiega ühendust, et olukord lahendada.' },
	{ rating: 5, title: 'Professionaalne', body: 'Kõik oli läbipaistev: pakkumine, töö käik ja lõpparve. Garantii tingimused selgelt kirjas.' },
	{ rating: 4, title: 'Всё хорошо', body: 'Поменяли колодки и диски за один день. Машина тормозит отлично.' },
]

const reviewerCars: Array<Omit<VehicleSpec, 'owner'>> = [
	{ brand: 'volkswagen', model: 'Golf', spec: '1.4 TSI Comfortline', registration: '101BKR', year: 2016, fuel: 'petrol', transmission: 'manual', mileage: 88_000 },
	{ brand: 'toyota', model: 'RAV4', spec: '2.5 Hybrid AWD', registration: '202CLT', year: 2020, fuel: 'hybrid', transmission: 'automatic', mileage: 54_000 },
	{ brand: 'bmw', model: '520d', spec: 'Touring xDrive', registration: '303DMN', year: 2017, fuel: 'diesel', transmission: 'automatic', mileage: 131_000 },
	{ brand: 'skoda', model: 'Superb', spec: '2.0 TDI Style', registration: '404EPR', year: 2019, fuel: 'diesel', transmission: 'semi_automatic', mileage: 97_000 },
	{ brand: 'kia', model: 'Ceed', spec: '1.6 CRDi', registration: '505FKS', year: 2015, fuel: 'diesel', transmission: 'manual', mileage: 142_000 },
	{ brand: 'tesla', model: 'Model 3', spec: 'Long Range', registration: '606GLT', year: 2021, fuel: 'electric', transmission: 'automatic', mileage: 41_000 },
	{ brand: 'volvo', model: 'XC60', spec: 'B4 Momentum', registration: '707HMV', year: 2019, fuel: 'hybrid', transmission: 'automatic', mileage: 76_000 },
	{ brand: 'ford', model: 'Focus', spec: '1.0 EcoBoost', registration: '808JNP', year: 2018, fuel: 'petrol', transmission: 'manual', mileage: 69_000 },
]

/** Completed, reviewed jobs of the other customers: ratings and reviews on every workshop. */
async function insertHistory(
	tx: Tx,
	refs: ReferenceIds,
	people: People,
	workshopIds: string[],
	now: Date,
	random: () => number,
) {
	const vehicleIds: string[] = []
	for (const [i, reviewer] of people.reviewers.entries()) {
		vehicleIds.push(await insertVehicle(tx, refs, { ...reviewerCars[i]!, owner: reviewer.id }, new Date(now.getTime() - 400 * DAY)))
	}
	let textIndex = 0
	for (const [index, workshopId] of workshopIds.entries()) {
		const w = demoWorkshops[index]!
		const reviewCount = index === 0 ? 3 : 2 + Math.floor(random() * 5)
		for (let n = 0; n < reviewCount; n++) {
			const reviewerIndex = (index + n * 3) % people.reviewers.length
			const reviewer = people.reviewers[reviewerIndex]!
			const text = reviewTexts[textIndex++ % reviewTexts.length]!
			const created = new Date(now.getTime() - (20 + Math.floor(random() * 300)) * DAY)
			const selected = new Date(created.getTime() + 1 * DAY)
			const completed = new Date(created.getTime() + 3 * DAY)
			const price = 60 + Math.floor(random() * 40) * 10
			const requestId = await insertRequest(tx, refs, {
				customer: reviewer.id,
				vehicle: vehicleIds[reviewerIndex]!,
				services: [w.services[n % w.services.length]!],
				details: 'Palun pakkumist.',
				location: refs.cities.has(w.city) ? demoCities.find(([c]) => c === w.city)![1] : 'Tallinn',
				city: w.city,
				createdAt: created,
				preferredAt: new Date(created.getTime() + 2 * DAY),
				status: 'pending',
			})
			const offerId = await insertOffer(tx, {
				request: requestId,
				workshop: workshopId,
				price,
				status: 'job_completed',
				createdAt: new Date(created.getTime() + 4 * 60 * 60 * 1000),
				finalPrice: price + (n % 2 ? 0 : 15),
				selectedAt: selected,
				completedAt: completed,
			})
			await advanceRequest(
				tx,
				requestId,
				[
					{ status: 'offer', at: new Date(created.getTime() + 4 * 60 * 60 * 1000), actor: null },
					{ status: 'in_progress', at: selected, actor: reviewer.id },
					{ status: 'completed', at: completed, actor: null },
				],
				offerId,
			)
			await tx.insert(t.reviews).values({
				requestId,
				workshopId,
				customerId: reviewer.id,
				rating: text.rating,
				title: text.title,
				body: text.body,
				reply: text.reply ?? null,
				repliedAt: text.reply ? new Date(completed.getTime() + 2 * DAY) : null,
				createdAt: new Date(completed.getTime() + 1 * DAY),
			})
		}
	}
	// Other customers' open requests, so workshops have something to bid on.
	const open = [
		{ who: 0, services: ['diagnostics'], details: 'Check engine tuli põleb, mootor töötab ebaühtlaselt külmalt käivitades.', city: 'tallinn', hours: 5 },
		{ who: 2, services: ['oil-change', 'maintenance'], details: 'Плановое ТО на 90 000 км, масло и фильтры.', city: 'tallinn', hours: 26 },
		{ who: 4, services: ['tyres'], details: 'Talverehvide paigaldus, rehvid on velgedel.', city: 'tartu', hours: 3 },
	]
	for (const o of open) {
		const requestId = await insertRequest(tx, refs, {
			customer: people.reviewers[o.who]!.id,
			vehicle: vehicleIds[o.who]!,
			services: o.services,
			details: o.details,
			location: demoCities.find(([c]) => c === o.city)![1],
			city: o.city,
			createdAt: new Date(now.getTime() - o.hours * 60 * 60 * 1000),
			preferredAt: atHour(new Date(now.getTime() + (3 + (o.who % 3)) * DAY), 9 + o.who),
			status: 'pending',
		})
		if (o.who === 2) {
			await insertOffer(tx, { request: requestId, workshop: workshopIds[3]!, price: 95, status: 'pending', createdAt: new Date(now.getTime() - 20 * 60 * 60 * 1000) })
			await advanceRequest(tx, requestId, [{ status: 'offer', at: new Date(now.getTime() - 20 * 60 * 60 * 1000), actor: null }])
		}
	}
	// A job another workshop won, where the demo workshop's offer was rejected.
	const lostRequest = await insertRequest(tx, refs, {
		customer: people.reviewers[1]!.id,
		vehicle: vehicleIds[1]!,
		services: ['brakes'],
		details: 'Tagumised pidurikettad ja klotsid vahetusse.',
		location: 'Tallinn',
		city: 'tallinn',
		createdAt: new Date(now.getTime() - 9 * DAY),
		preferredAt: new Date(now.getTime() - 5 * DAY),
		status: 'pending',
	})
	await insertOffer(tx, { request: lostRequest, workshop: workshopIds[0]!, price: 230, status: 'rejected', createdAt: new Date(now.getTime() - 8.8 * DAY) })
	const winner = await insertOffer(tx, {
		request: lostRequest,
		workshop: workshopIds[1]!,
		price: 205,
		status: 'selected',
		createdAt: new Date(now.getTime() - 8.5 * DAY),
		selectedAt: new Date(now.getTime() - 8 * DAY),
	})
	await advanceRequest(
		tx,
		lostRequest,
		[
			{ status: 'offer', at: new Date(now.getTime() - 8.8 * DAY), actor: null },
			{ status: 'in_progress', at: new Date(now.getTime() - 8 * DAY), actor: people.reviewers[1]!.id },
		],
		winner,
	)
	await tx.insert(t.notifications).values({
		userId: people.workshopOwner.id,
		type: 3,
		messageKey: 'notifications.offerRejected',
		messageParams: { request: 'Pidurite remont' },
		receivedId: (await tx.select({ id: t.offers.id }).from(t.offers).where(sql`${t.offers.requestId} = ${lostRequest} and ${t.offers.workshopId} = ${workshopIds[0]!}`))[0]!.id,
		isRead: true,
		readAt: new Date(now.getTime() - 7 * DAY),
		createdAt: new Date(now.getTime() - 8 * DAY),
	})
	await refreshRatings(tx)
}

/** The demo customer's and demo workshop's own flow, one request per status. */
async function insertDemoFlow(tx: Tx, refs: ReferenceIds, people: People, workshopIds: string[], now: Date) {
	const mari = people.customer.id
	const jaan = people.workshopOwner.id
	const kask = workshopIds[0]!
	const ago = (days: number) => new Date(now.getTime() - days * DAY)
	const ahead = (days: number, hour: number) => atHour(new Date(now.getTime() + days * DAY), hour)

	const corolla = await insertVehicle(tx, refs, { owner: mari, brand: 'toyota', model: 'Corolla', spec: '1.8 Hybrid Active', registration: '123ABC', vin: 'SB1ZS3JE50E123456', year: 2019, fuel: 'hybrid', transmission: 'automatic', mileage: 58_200, description: 'Pere igapäevaauto' }, ago(200))
	const passat = await insertVehicle(tx, refs, { owner: mari, brand: 'volkswagen', model: 'Passat', spec: 'Variant 2.0 TDI', registration: '456DEF', vin: 'WVWZZZ3CZFE456789', year: 2015, fuel: 'diesel', transmission: 'manual', mileage: 121_400, description: 'Tööauto' }, ago(200))
	const octavia = await insertVehicle(tx, refs, { owner: mari, brand: 'skoda', model: 'Octavia', spec: 'Combi 1.5 TSI Style', registration: '789GHI', year: 2021, fuel: 'petrol', transmission: 'semi_automatic', mileage: 34_900 }, ago(150))

	// 1. pending: no offers yet; the demo workshop was told about it.
	const pending = await insertRequest(tx, refs, {
		customer: mari,
		vehicle: corolla,
		services: ['tyres'],
		details: 'Suverehvid talverehvide vastu, talverehvid on velgedel kaasas. Palun ka rehvirõhu kontroll.',
		location: 'Tallinn, Mustamäe',
		city: 'tallinn',
		createdAt: new Date(now.getTime() - 2 * 60 * 60 * 1000),
		preferredAt: ahead(5, 10),
		status: 'pending',
	})

	// 2. offer: three pending offers, one of them the demo workshop's.
	const offered = await insertRequest(tx, refs, {
		customer: mari,
		vehicle: passat,
		services: ['brakes', 'diagnostics'],
		details: 'Pidurid krigisevad pidurdamisel ja armatuurlaual põleb ABS-i tuli.',
		location: 'Tallinn, Lasnamäe',
		city: 'tallinn',
		createdAt: ago(1),
		preferredAt: ahead(3, 9),
		status: 'pending',
	})
	const kaskPendingAt = new Date(now.getTime() - 20 * 60 * 60 * 1000)
	await insertOffer(tx, { request: offered, workshop: kask, price: 185, status: 'pending', createdAt: kaskPendingAt, notes: 'Esiteljed: klotsid ja kettad.', description: 'Diagnostika, esisilla pidurikettad ja -klotsid, ABS-anduri kontroll. Töö ca 3 h.' })
	await insertOffer(tx, { request: offered, workshop: workshopIds[1]!, price: 210, status: 'pending', createdAt: new Date(now.getTime() - 16 * 60 * 60 * 1000), description: 'Originaalvaruosad, valmis samal päeval.' })
	await insertOffer(tx, { request: offered, workshop: workshopIds[11]!, price: 245, status: 'pending', createdAt: new Date(now.getTime() - 6 * 60 * 60 * 1000), description: 'Incl. brake fluid change and a full diagnostics report.' })
	await advanceRequest(tx, offered, [{ status: 'offer', at: kaskPendingAt, actor: null }])

	// 3. in_progress: the demo workshop's offer was selected.
	const inProgress = await insertRequest(tx, refs, {
		customer: mari,
		vehicle: corolla,
		services: ['maintenance', 'oil-change'],
		details: 'Korraline hooldus 60 000 km, hooldusraamatusse kanne.',
		location: 'Tallinn',
		city: 'tallinn',
		createdAt: ago(6),
		preferredAt: ahead(1, 8),
		status: 'pending',
	})
	const selectedOffer = await insertOffer(tx, { request: inProgress, workshop: kask, price: 149, status: 'selected', createdAt: ago(5.8), selectedAt: ago(4), description: 'Hooldus tootja graafiku järgi: õli, filtrid, kontrollid.' })
	const rejectedElsewhere = await insertOffer(tx, { request: inProgress, workshop: workshopIds[11]!, price: 189, status: 'rejected', createdAt: ago(5.5) })
	await advanceRequest(tx, inProgress, [
		{ status: 'offer', at: ago(5.8), actor: null },
		{ status: 'in_progress', at: ago(4), actor: mari },
	], selectedOffer)

	// 4. completed, waiting for feedback.
	const completed = await insertRequest(tx, refs, {
		customer: mari,
		vehicle: octavia,
		services: ['air-conditioning'],
		details: 'Kliimaseade ei jahuta, vaja täita ja lekkekontroll.',
		location: 'Tallinn',
		city: 'tallinn',
		createdAt: ago(20),
		preferredAt: ago(16),
		status: 'pending',
	})
	const completedOffer = await insertOffer(tx, { request: completed, workshop: kask, price: 89, status: 'job_completed', createdAt: ago(19.5), selectedAt: ago(18), completedAt: ago(2), finalPrice: 89 })
	await advanceRequest(tx, completed, [
		{ status: 'offer', at: ago(19.5), actor: null },
		{ status: 'in_progress', at: ago(18), actor: mari },
		{ status: 'completed', at: ago(2), actor: jaan },
	], completedOffer)

	// 5. completed and reviewed, not yet answered.
	const reviewed = await insertRequest(tx, refs, {
		customer: mari,
		vehicle: passat,
		services: ['suspension', 'wheel-alignment'],
		details: 'Esisilla kolin ja auto tõmbab paremale.',
		location: 'Tallinn',
		city: 'tallinn',
		createdAt: ago(45),
		preferredAt: ago(42),
		status: 'pending',
	})
	const reviewedOffer = await insertOffer(tx, { request: reviewed, workshop: kask, price: 300, status: 'job_completed', createdAt: ago(44.7), selectedAt: ago(44), completedAt: ago(40), finalPrice: 320 })
	await advanceRequest(tx, reviewed, [
		{ status: 'offer', at: ago(44.7), actor: null },
		{ status: 'in_progress', at: ago(44), actor: mari },
		{ status: 'completed', at: ago(40), actor: jaan },
	], reviewedOffer)
	const newReview = randomUUID()
	await tx.insert(t.reviews).values({ id: newReview, requestId: reviewed, workshopId: kask, customerId: mari, rating: 5, title: 'Auto sõidab jälle otse', body: 'Vahetati stabilisaatori otsad ja tehti sillastend. Lõpphind oli pakkumisest veidi suurem, aga see lepiti enne kokku.', createdAt: ago(1) })

	// 6. completed, reviewed and answered, long ago.
	const answered = await insertRequest(tx, refs, {
		customer: mari,
		vehicle: corolla,
		services: ['brakes'],
		details: 'Tagumised piduriklotsid.',
		location: 'Tallinn',
		city: 'tallinn',
		createdAt: ago(120),
		preferredAt: ago(117),
		status: 'pending',
	})
	const answeredOffer = await insertOffer(tx, { request: answered, workshop: kask, price: 95, status: 'job_completed', createdAt: ago(119.8), selectedAt: ago(119), completedAt: ago(116), finalPrice: 95 })
	await advanceRequest(tx, answered, [
		{ status: 'offer', at: ago(119.8), actor: null },
		{ status: 'in_progress', at: ago(119), actor: mari },
		{ status: 'completed', at: ago(116), actor: jaan },
	], answeredOffer)
	const answeredReview = randomUUID()
	await tx.insert(t.reviews).values({ id: answeredReview, requestId: answered, workshopId: kask, customerId: mari, rating: 4, title: 'Hea hinna ja kvaliteedi suhe', body: 'Kõik korras, ainult ootamine venis veidi.', reply: 'Aitäh, Mari! Järgmisel korral broneerime Teile hommikuse aja.', repliedAt: ago(114), createdAt: ago(115) })

	// 7. cancelled by the customer; the only offer became request_cancelled.
	const cancelled = await insertRequest(tx, refs, {
		customer: mari,
		vehicle: octavia,
		services: ['bodywork', 'painting'],
		details: 'Tagumise kaitseraua kriim parkimisest.',
		location: 'Pärnu',
		city: 'parnu',
		createdAt: ago(30),
		preferredAt: ago(25),
		status: 'pending',
	})
	const cancelledOffer = await insertOffer(tx, { request: cancelled, workshop: workshopIds[4]!, price: 160, status: 'request_cancelled', createdAt: ago(29.5) })
	await advanceRequest(tx, cancelled, [
		{ status: 'offer', at: ago(29.5), actor: null },
		{ status: 'cancelled', at: ago(28), actor: mari },
	])

	// Notifications, read and unread, for both demo accounts (types of spec §2).
	const note = (userId: string, type: number, messageKey: string, receivedId: string, createdAt: Date, isRead: boolean, messageParams: Record<string, string | number> = {}) => ({
		userId,
		type,
		messageKey,
		messageParams,
		receivedId,
		isRead,
		readAt: isRead ? new Date(createdAt.getTime() + 60 * 60 * 1000) : null,
		createdAt,
	})
	const kaskName = demoWorkshops[0]!.name
	await tx.insert(t.notifications).values([
		note(mari, 2, 'notifications.newOffer', offered, new Date(now.getTime() - 6 * 60 * 60 * 1000), false, { workshop: demoWorkshops[11]!.name, price: 245 }),
		note(mari, 2, 'notifications.newOffer', offered, new Date(now.getTime() - 16 * 60 * 60 * 1000), false, { workshop: demoWorkshops[1]!.name, price: 210 }),
		note(mari, 2, 'notifications.newOffer', offered, kaskPendingAt, true, { workshop: kaskName, price: 185 }),
		note(mari, 4, 'notifications.jobCompleted', completed, ago(2), false, { workshop: kaskName }),
		note(mari, 1, 'notifications.reviewReply', answeredReview, ago(114), true, { workshop: kaskName }),
		note(jaan, 1, 'notifications.newRequest', pending, new Date(now.getTime() - 2 * 60 * 60 * 1000), false, { vehicle: 'Toyota Corolla', city: 'Tallinn' }),
		note(jaan, 5, 'notifications.newReview', newReview, ago(1), false, { customer: 'Mari Tamm', rating: 5 }),
		note(jaan, 3, 'notifications.offerSelected', selectedOffer, ago(4), true, { customer: 'Mari Tamm' }),
		note(jaan, 5, 'notifications.newReview', answeredReview, ago(115), true, { customer: 'Mari Tamm', rating: 4 }),
	])
	const premiumOwner = people.owners[10]!.id
	const parnuOwner = people.owners[3]!.id
	await tx.insert(t.notifications).values([
		note(premiumOwner, 3, 'notifications.offerRejected', rejectedElsewhere, ago(4), false, {}),
		note(parnuOwner, 3, 'notifications.requestCancelled', cancelledOffer, ago(28), true, {}),
	])

	// A chat between the demo customer and the demo workshop about the job in progress.
	const chat = [
		[mari, jaan, 'Tere! Kas saan auto juba homme hommikul kella 8ks tuua?', 4.0],
		[jaan, mari, 'Tere, Mari! Jah, 8:00 sobib. Hooldus võtab umbes 2 tundi.', 3.9],
		[mari, jaan, 'Suurepärane. Kas vahetate ka salongifiltri?', 3.8],
		[jaan, mari, 'Jah, see on hoolduse hinnas sees. Anname teada, kui auto on valmis.', 3.7],
		[mari, jaan, 'Aitäh!', 0.2],
	] as const
	await tx.insert(t.chatMessages).values(
		chat.map(([senderId, receiverId, message, daysAgo]) => ({ senderId, receiverId, message, createdAt: ago(daysAgo) })),
	)
	await refreshRatings(tx)
}

async function insertInboxAndVisits(tx: Tx, now: Date, random: () => number) {
	await tx.insert(t.contactMessages).values([
		{ name: 'Peeter Mägi', email: 'peeter.magi@example.com', message: 'Kas portaalis saab ka haagiste hooldust tellida?', language: 'et', createdAt: new Date(now.getTime() - 3 * DAY) },
		{ name: 'Anna Kuznetsova', email: 'anna.k@example.com', message: 'Здравствуйте! Как добавить второй автосервис к одной учётной записи?', language: 'ru', createdAt: new Date(now.getTime() - 1 * DAY) },
	])
	const rows = []
	for (let daysAgo = 13; daysAgo >= 0; daysAgo--) {
		const day = new Date(now.getTime() - daysAgo * DAY).toISOString().slice(0, 10)
		const visitors = 30 + Math.floor(random() * 60)
		for (let v = 0; v < visitors; v++) rows.push({ day, visitorHash: `demo-${daysAgo}-${v}` })
	}
	await tx.insert(t.visits).values(rows)
}

/** Recomputes every workshop's average rating and review count from its reviews. */
export async function refreshRatings(tx: Tx) {
	await tx.execute(sql`
		update ${t.workshops} w set
			rating_average = coalesce(r.average, 0),
			review_count = coalesce(r.total, 0)
		from (select ${t.workshops.id} as id, avg(rv.rating)::float8 as average, count(rv.id)::int as total
		      from ${t.workshops} left join ${t.reviews} rv on rv.workshop_id = ${t.workshops.id}
		      group by ${t.workshops.id}) r
		where w.id = r.id`)
}

/** The same day at a round hour, Estonian time (UTC+2 in winter; close enough for demo data). */
function atHour(day: Date, hour: number) {
	const d = new Date(day)
	d.setUTCHours(hour - 2, 0, 0, 0)
	return d
}

/** A small deterministic generator, so the demo data is the same on every machine. */
function seededRandom(seed: number) {
	let state = seed >>> 0
	return () => {
		state = (state + 0x6d2b79f5) >>> 0
		let x = state
		x = Math.imul(x ^ (x >>> 15), x | 1)
		x ^= x + Math.imul(x ^ (x >>> 7), x | 61)
		return ((x ^ (x >>> 14)) >>> 0) / 4294967296
	}
}
