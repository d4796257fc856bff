import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { Form, Link, useActionData, useFetcher, useLoaderData } from 'react-router'
import { useEffect, useState } from 'react'
import { useHydrated } from 'remix-utils/use-hydrated'
import * as z from 'zod/mini'
import { useTranslation } from '~/i18n/translation'
import { ButtonLink } from '~/components/button-link'
import { CheckboxGroup, ErrorList, Field, FileField, FormActions, FormAlert, FormSection, FormSecurity, SelectField, TextareaField } from '~/components/forms'
import { PageHeader } from '~/components/page-header'
import { StepIndicator } from '~/components/step-indicator'
import { getChoices, referenceLists } from '~/domain/site/reference.server'
import { MAX_REQUEST_IMAGES, ServiceRequestSchema } from '~/domain/service-flow/requests'
import { createServiceRequest } from '~/domain/service-flow/request-moves.server'
import { workshopToAsk } from '~/domain/service-flow/requests.server'
import { listVehicles } from '~/domain/service-flow/vehicles.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { requireUser } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { routeMeta } from '~/utils/meta'
import { readFormUploads, withFormFiles } from '~/uploads/multipart.server'
import { decodeId, encodeId } from '~/utils/public-id'
import { handleDomainError } from '~/utils/route-helpers.server'
import { redirectWithToast } from '~/utils/toast.server'
import { dateToTallinnInput } from '~/utils/time'
import { preferredStartParam } from '~/domain/booking/free-times'
import { type AdsHandle } from '~/utils/ad-places'
import { UsualPricesBox } from '~/components/usual-prices'
import { type UsualPrices, UsualPricesQuerySchema } from '~/domain/pricing/usual-prices'
import { usualPrices } from '~/domain/pricing/usual-prices.server'
import { DomainError } from '~/utils/errors'
import { type Language } from '~/i18n/config'

/** The form's second button (no JavaScript): the form comes back as typed, with the usual prices of its choices. */
const SHOW_USUAL_PRICES = 'usualPrices'
/** With JavaScript, the prices are looked up once the choices rest this long (ticking several services asks once). */
const LOOK_UP_AFTER_MS = 250

export async function loader({ request }: LoaderFunctionArgs) {
	const user = await requireUser(request, { role: 'customer' })
	const language = await getLanguage(request)
	const t = getFixedT(language, 'customer')
	const params = new URL(request.url).searchParams
	const [vehicles, choices, workshop, lists] = await Promise.all([
		listVehicles(user.id),
		getChoices(language, ['services', 'cities']),
		// "Ask for an offer" on a workshop's page names the workshop (its public id).
		workshopToAsk(decodeId(params.get('workshop'))),
		referenceLists(),
	])
	// A reminder's link names the service by its code (?service=tyres); an unknown one is ignored.
	const serviceId = lists.services.idByCode.get(params.get('service') ?? '')
	const chosen = decodeId(params.get('vehicle'))
	// A free time chosen on the workshop's page (?at=YYYY-MM-DDTHH:MM, Tallinn): a bad or past one is ignored.
	const preferredAt = preferredStartParam(params.get('at'))
	return {
		workshop: workshop ? { ...workshop, slug: encodeId(workshop.id) } : null,
		meta: { title: t('request.newTitle') },
		vehicles: vehicles.map((v) => ({ value: v.id, label: `${v.brandName} ${v.model} · ${v.registrationNumber}` })),
		services: choices.services,
		cities: choices.cities,
		// Only the customer's own vehicle can be preselected.
		vehicleId: vehicles.find((v) => v.id === chosen)?.id ?? (vehicles.length === 1 ? vehicles[0]!.id : ''),
		serviceIds: serviceId ? [serviceId] : [],
		preferredAt,
		earliest: dateToTallinnInput(new Date()),
	}
}

export async function action({ request }: ActionFunctionArgs) {
	const user = await requireUser(request, { role: 'customer' })
	return withFormFiles(request, async (formData) => {
		await validateCsrf(request, formData)
		const uploads = await readFormUploads(formData, user.id, { images: { purpose: 'request_image', max: MAX_REQUEST_IMAGES } })
		if (formData.get('intent') === SHOW_USUAL_PRICES) {
			// Nothing is refused: the fields come back as they were (photos held), without errors, and the prices beside them.
			const typed = parseWithZod(formData, { schema: z.object({}) })
			const prices = await usualPricesOfForm(user.id, formData, await getLanguage(request))
			return data({ result: typed.reply(), fileErrors: uploads.errors, held: await uploads.hold(), usualPrices: prices })
		}
		const submission = parseWithZod(formData, { schema: ServiceRequestSchema })
		if (submission.status !== 'success' || !uploads.ok) {
			return data({ result: submission.reply(), fileErrors: uploads.errors, held: await uploads.hold(), usualPrices: null }, { status: uploads.status })
		}
		try {
			const requestId = await createServiceRequest(user.id, submission.value, uploads.files.images)
			return redirectWithToast(`/request-details/${encodeId(requestId)}`, { type: 'success', key: 'customer:request.created' }, { request })
		} catch (error) {
			return handleDomainError(error, { as: 'form', submission, data: { fileErrors: null, held: await uploads.hold(), usualPrices: null } })
		}
	})
}

/** The usual prices of the form's choices, or none while they are incomplete or not the customer's. */
async function usualPricesOfForm(customerId: string, formData: FormData, language: Language): Promise<UsualPrices | null> {
	const query = UsualPricesQuerySchema.safeParse({ vehicle: formData.get('vehicleId'), city: formData.get('cityId') || undefined, service: formData.getAll('serviceIds') })
	if (!query.success) return null
	try {
		return await usualPrices(customerId, { vehicleId: query.data.vehicle, cityId: query.data.city, serviceIds: query.data.service }, language)
	} catch (error) {
		if (error instanceof DomainError) return null
		throw error
	}
}

export const meta = routeMeta<typeof loader>()

// The request form (step 1) shows no ads (app/utils/ad-places.ts, decision 0129).
export const handle: AdsHandle = { ads: false }

export default function NewServiceRequestPage() {
	const { t } = useTranslation('customer')
	const { vehicles, services, cities, vehicleId, serviceIds, preferredAt, earliest, workshop } = useLoaderData<typeof loader>()
	const actionData = useActionData<typeof action>()
	const [form, fields] = useForm({
		id: 'new-service-request',
		lastResult: actionData?.result,
		defaultValue: { vehicleId, serviceIds, workshopId: workshop?.id, alsoOthers: 'on', preferredAt: preferredAt ?? undefined },
		onValidate: ({ formData }) => parseWithZod(formData, { schema: ServiceRequestSchema }),
		shouldRevalidate: 'onInput',
	})
	const serviceDefaults = fields.serviceIds.initialValue as string[] | string | undefined
	// Adding a vehicle on the way comes back here, the workshop and the time still named.
	const hereQuery = [workshop ? `workshop=${workshop.slug}` : '', preferredAt ? `at=${preferredAt}` : ''].filter(Boolean).join('&')
	const here = `/new-service-register${hereQuery ? `?${hereQuery}` : ''}`
	const addVehicle = `/add-vehicle?returnTo=${encodeURIComponent(here)}`
	const prices = useUsualPrices(fields.vehicleId.value, fields.cityId.value, fields.serviceIds.value)
	const hydrated = useHydrated()

	return (
		<>
			<PageHeader title={t('request.newTitle')} subtitle={t('request.newSubtitle')} />
			<StepIndicator current={1} />
			{vehicles.length === 0 ? (
				<div className="empty empty--large">
					{/* A new customer who came from a workshop's page sees whom the request will go to. */}
					{workshop ? <p className="addressed__to">{t('request.addressedTo', { workshop: workshop.name })}</p> : null}
					<p>{t('request.noVehicle')}</p>
					<ButtonLink to={addVehicle}>{t('request.addVehicleFirst')}</ButtonLink>
				</div>
			) : (
				<Form method="post" encType="multipart/form-data" className="form card" {...getFormProps(form)}>
					<FormSecurity />
					<FormAlert id={form.errorId} errors={form.errors} />
					{workshop ? (
						<div className="addressed">
							<input {...getInputProps(fields.workshopId, { type: 'hidden' })} />
							<p className="addressed__to">{t('request.addressedTo', { workshop: workshop.name })}</p>
							<p className="field__help">{t('request.addressedHint', { workshop: workshop.name })}</p>
							<label className="checkbox">
								<input {...getInputProps(fields.alsoOthers, { type: 'checkbox' })} /> {t('request.alsoOthers')}
							</label>
							<ErrorList errors={fields.workshopId.errors} />
						</div>
					) : (
						// The workshop named could not be asked (its owner blocked meanwhile): said here, the form goes to others.
						<ErrorList errors={fields.workshopId.errors} />
					)}
					<fieldset className="fieldset">
						<legend>{t('request.vehicleSection')}</legend>
						<SelectField
							label={t('request.vehicle')}
							required
							placeholder={t('request.chooseVehicle')}
							options={vehicles}
							selectProps={getSelectProps(fields.vehicleId)}
							errors={fields.vehicleId.errors}
						/>
						{/* A link of its own on a line: a target a finger hits (24 px high, WCAG 2.2, 2.5.8). */}
						<p className="field__help">
							<Link to={addVehicle} className="link-target">
								{t('request.addAnotherVehicle')}
							</Link>
						</p>
						<label className="checkbox">
							<input {...getInputProps(fields.shareHistory, { type: 'checkbox' })} aria-describedby="share-history-help" /> {t('request.shareHistory')}
						</label>
						<p id="share-history-help" className="field__help">
							{t('request.shareHistoryHelp')}
						</p>
					</fieldset>

					<CheckboxGroup
						legend={t('request.services')}
						name="serviceIds"
						required
						options={services}
						defaultValue={serviceDefaults}
						errors={fields.serviceIds.errors}
						help={t('request.servicesHelp')}
						className="checkbox-group--columns"
					/>
					<UsualPricesBox prices={prices.shown ?? actionData?.usualPrices ?? null} busy={prices.busy}>
						{/* With JavaScript the prices follow the choices; without, this asks for them and keeps what is typed. */}
						{hydrated ? null : (
							<button type="submit" name="intent" value={SHOW_USUAL_PRICES} formNoValidate className="button button--ghost button--small">
								{t('usualPrices.show')}
							</button>
						)}
					</UsualPricesBox>

					<FormSection legend={t('request.whenWhere')}>
						<Field
							label={t('request.preferredAt')}
							required
							inputProps={{ ...getInputProps(fields.preferredAt, { type: 'datetime-local' }), min: earliest }}
							errors={fields.preferredAt.errors}
						/>
						<SelectField
							label={t('request.city')}
							placeholder={t('request.anyCity')}
							options={cities}
							selectProps={getSelectProps(fields.cityId)}
							errors={fields.cityId.errors}
						/>
						<Field
							className="field--wide"
							label={t('request.location')}
							required
							help={t('request.locationHelp')}
							inputProps={getInputProps(fields.location, { type: 'text' })}
							errors={fields.location.errors}
						/>
					</FormSection>

					<TextareaField
						label={t('request.details')}
						required
						help={t('request.detailsHelp')}
						textareaProps={getTextareaProps(fields.details)}
						errors={fields.details.errors}
					/>
					<TextareaField
						label={t('request.notes')}
						help={t('request.notesHelp')}
						textareaProps={{ ...getTextareaProps(fields.notes), rows: 3 }}
						errors={fields.notes.errors}
					/>

					<FileField
						id="request-images"
						name="images"
						label={t('request.images')}
						help={t('common:upload.imagesHelp')}
						accept="images"
						multiple
						errors={actionData?.fileErrors?.images}
						held={actionData?.held?.images}
					/>

					<FormActions submit={t('request.submit')} large />
				</Form>
			)}
		</>
	)
}

/**
 * The usual prices of the chosen vehicle, city and services, looked up again as they change
 * (resources.usual-prices.ts) once they rest for a moment; none until a vehicle and a service are
 * chosen. Each choice is its own fetcher: a look-up overtaken by the next one is not aborted (an
 * aborted load is an error in the console), its answer is only not shown.
 */
function useUsualPrices(vehicleId: unknown, cityId: unknown, serviceIds: unknown) {
	// Only a query the look-up takes (the same schema): a half-made choice asks nothing.
	const query = UsualPricesQuerySchema.safeParse({
		vehicle: vehicleId,
		city: typeof cityId === 'string' && cityId ? cityId : undefined,
		service: Array.isArray(serviceIds) ? serviceIds : serviceIds ? [serviceIds] : [],
	})
	let search = ''
	if (query.success) {
		const params = new URLSearchParams({ vehicle: query.data.vehicle })
		if (query.data.city) params.set('city', query.data.city)
		for (const id of query.data.service) params.append('service', id)
		search = params.toString()
	}
	const [asked, setAsked] = useState('')
	useEffect(() => {
		const timer = setTimeout(() => setAsked(search), search ? LOOK_UP_AFTER_MS : 0)
		return () => clearTimeout(timer)
	}, [search])
	const fetcher = useFetcher<UsualPrices>({ key: `usual-prices?${asked}` })
	useEffect(() => {
		if (asked && fetcher.state === 'idle' && !fetcher.data) fetcher.load(`/resources/usual-prices?${asked}`)
		// Once per choice: the fetcher of a new choice is a new one.
		// eslint-disable-next-line react-hooks/exhaustive-deps
	}, [asked])
	// The last answer stays while the next is on its way; none once the choices are undone.
	const [shown, setShown] = useState<UsualPrices | null>(null)
	useEffect(() => {
		if (!search) setShown(null)
		else if (asked === search && fetcher.data) setShown(fetcher.data)
	}, [search, asked, fetcher.data])
	return { shown: search ? shown : null, busy: Boolean(search) && (asked !== search || fetcher.state !== 'idle') }
}
