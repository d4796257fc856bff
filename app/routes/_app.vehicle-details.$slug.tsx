import { parseWithZod } from '@conform-to/zod/v4'
import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { ButtonLink } from '~/components/button-link'
import { ConfirmAction } from '~/components/confirm-action'
import { FormSecurity } from '~/components/forms'
import { Item, ListOrEmpty } from '~/components/item-list'
import { PageHeader } from '~/components/page-header'
import { Fact, Panel } from '~/components/panel'
import { ServiceHistory, ServiceRecordForm, WarrantyList } from '~/components/passport'
import { StatusBadge } from '~/components/status-badge'
import { DeleteRecordSchema, ServiceRecordSchema } from '~/domain/service-flow/passport-schema'
import { addServiceRecord, deleteServiceRecord, setCalendarLink, vehiclePassport } from '~/domain/service-flow/passport.server'
import { requestPagePath } from '~/domain/service-flow/status'
import { deleteVehicle, getVehicle, vehicleHistory } from '~/domain/service-flow/vehicles.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { useLanguage } from '~/i18n/use-language'
import { requireUser } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { getEnv } from '~/utils/env.server'
import { formatDate, formatMoney, formatNumber } from '~/utils/format'
import { routeMeta } from '~/utils/meta'
import { readFormUploads, withFormFiles } from '~/utils/multipart.server'
import { encodeId } from '~/utils/public-id'
import { handleDomainError, idParam, or404 } from '~/utils/route-helpers.server'
import { redirectWithToast } from '~/utils/toast.server'

/**
 * A vehicle's page, its passport (issue 20): its details, its service history (the completed jobs
 * and the work done elsewhere the owner added), its warranties, its private calendar link, and its
 * requests. The owner's only: anyone else's is 404.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
	const user = await requireUser(request, { role: 'customer' })
	const vehicleId = idParam(params.slug)
	const language = await getLanguage(request)
	const vehicle = await or404(getVehicle(user.id, vehicleId))
	const [{ history, warranties }, requests] = await Promise.all([vehiclePassport(vehicle, language), vehicleHistory(user.id, vehicleId, language)])
	const t = getFixedT(language, 'customer')
	const slug = encodeId(vehicle.id)
	const calendarPath = `/vehicle-details/${slug}/calendar.ics`
	return {
		meta: { title: `${vehicle.brandName} ${vehicle.model} · ${vehicle.registrationNumber}` },
		slug,
		vehicle: { ...vehicle, calendarToken: undefined, title: t('vehicles.detailTitle', { name: `${vehicle.brandName} ${vehicle.model}` }) },
		history,
		warranties,
		calendar: {
			download: calendarPath,
			link: vehicle.calendarToken ? `${getEnv().APP_URL}${calendarPath}?token=${vehicle.calendarToken}` : null,
		},
		requests: requests.map((item) => ({ ...item, slug: encodeId(item.id) })),
	}
}

export async function action({ request, params }: ActionFunctionArgs) {
	const user = await requireUser(request, { role: 'customer' })
	const vehicleId = idParam(params.slug)
	const here = `/vehicle-details/${encodeId(vehicleId)}`
	return withFormFiles(request, async (formData) => {
		await validateCsrf(request, formData)
		const intent = formData.get('intent')

		if (intent === 'addRecord') {
			const submission = parseWithZod(formData, { schema: ServiceRecordSchema })
			const uploads = await readFormUploads(formData, user.id, { document: { purpose: 'service_document', max: 1 } })
			if (submission.status !== 'success' || !uploads.ok)
				return data({ intent, result: submission.reply(), documentErrors: uploads.errors.document ?? null, held: await uploads.hold() }, { status: 400 })
			try {
				await or404(addServiceRecord(user.id, vehicleId, submission.value, uploads.files.document[0] ?? null))
			} catch (error) {
				return handleDomainError(error, { as: 'form', submission, data: { intent, documentErrors: null, held: await uploads.hold() } })
			}
			return redirectWithToast(`${here}#service-history`, { type: 'success', key: 'customer:passport.recordAdded' }, { request })
		}

		if (intent === 'deleteRecord') {
			const parsed = DeleteRecordSchema.safeParse(Object.fromEntries(formData))
			if (!parsed.success) throw new Response('Not found', { status: 404 })
			await or404(deleteServiceRecord(user.id, vehicleId, parsed.data.record))
			return redirectWithToast(`${here}#service-history`, { type: 'success', key: 'customer:passport.recordRemoved' }, { request })
		}

		if (intent === 'makeCalendarLink' || intent === 'revokeCalendarLink') {
			await or404(setCalendarLink(user.id, vehicleId, intent === 'makeCalendarLink' ? 'make' : 'revoke'))
			const key = intent === 'makeCalendarLink' ? 'customer:passport.calendar.made' : 'customer:passport.calendar.revoked'
			return redirectWithToast(`${here}#calendar`, { type: 'success', key }, { request })
		}

		if (intent !== 'delete') throw new Response('Not found', { status: 404 })
		try {
			await or404(deleteVehicle(user.id, vehicleId))
		} catch (error) {
			return handleDomainError(error, { as: 'toast', redirectTo: here, request })
		}
		return redirectWithToast('/my-vehicle', { type: 'success', key: 'customer:vehicle.deleted' }, { request })
	})
}

export const meta = routeMeta<typeof loader>()

export default function VehicleDetailsPage() {
	const { t } = useTranslation('customer')
	const language = useLanguage()
	const { vehicle, history, warranties, calendar, requests, slug } = useLoaderData<typeof loader>()
	const actionData = useActionData<typeof action>()
	const recordAnswer = actionData && 'intent' in actionData && actionData.intent === 'addRecord' ? actionData : null
	const facts: Array<[string, React.ReactNode]> = [
		[t('vehicle.registrationNumber'), <span key="plate" className="plate">{vehicle.registrationNumber}</span>],
		[t('vehicle.modelSpecification'), vehicle.modelSpecification],
		[t('vehicle.vehicleYear'), vehicle.vehicleYear],
		[t('vehicle.registrationYear'), vehicle.registrationYear],
		[t('vehicle.manufactureYear'), vehicle.manufactureYear],
		[t('vehicle.fuelType'), vehicle.fuelType ? t(`vehicle.fuelTypes.${vehicle.fuelType}`) : null],
		[t('vehicle.transmission'), t(`vehicle.transmissions.${vehicle.transmission}`)],
		[t('vehicle.mileage'), t('vehicles.mileage', { miles: formatNumber(vehicle.mileage, language) })],
		[t('vehicle.vin'), vehicle.vin],
		[t('vehicle.shortDescription'), vehicle.shortDescription || null],
	]
	return (
		<>
			<PageHeader
				title={vehicle.title}
				actions={
					<>
						<ButtonLink to={`/new-service-register?vehicle=${slug}`}>{t('vehicles.requestService')}</ButtonLink>
						<ButtonLink to={`/edit-vehicle/${slug}`} kind="ghost">{t('vehicles.edit')}</ButtonLink>
					</>
				}
			/>
			<div className="detail-grid">
				<div className="stack">
					<Panel id="service-history" title={t('passport.history')}>
						<ServiceHistory entries={history} />
						<details className="widen" open={recordAnswer ? true : undefined}>
							<summary>{t('passport.addElsewhere')}</summary>
							<p className="item__meta">{t('passport.addElsewhereText')}</p>
							<ServiceRecordForm lastResult={recordAnswer?.result} documentErrors={recordAnswer?.documentErrors} held={recordAnswer?.held?.document} />
						</details>
					</Panel>
					<Panel id="vehicle-requests" title={t('passport.requests')}>
						<ListOrEmpty items={requests} empty={t('vehicles.noHistory')}>
							{(item) => (
								<Item
									key={item.id}
									title={<Link to={requestPagePath(item.status, item.slug)}>{item.services.join(', ')}</Link>}
									side={
										<>
											<StatusBadge kind="request" status={item.status} />
											{item.finalPriceCents !== null ? <p className="item__highlight">{formatMoney(item.finalPriceCents, language)}</p> : null}
										</>
									}
								>
									<p className="item__meta">{[formatDate(item.preferredAt, language), item.workshopName].filter(Boolean).join(' · ')}</p>
								</Item>
							)}
						</ListOrEmpty>
					</Panel>
				</div>
				<div className="stack">
					<Panel id="warranty" title={t('passport.warranty')}>
						<WarrantyList warranties={warranties} />
					</Panel>
					<Panel id="calendar" title={t('passport.calendar.title')}>
						<p>{t('passport.calendar.text')}</p>
						{calendar.link ? (
							<>
								<label className="field__label" htmlFor="calendar-link">
									{t('passport.calendar.link')}
								</label>
								<input id="calendar-link" className="field__input calendar-link" readOnly value={calendar.link} aria-describedby="calendar-link-help" />
								<p id="calendar-link-help" className="field__help">
									{t('passport.calendar.linkHelp')}
								</p>
							</>
						) : null}
						<div className="calendar-link__actions">
							<a href={calendar.download} className="button button--ghost button--small" download>
								{t('passport.calendar.download')}
							</a>
							<Form method="post">
								<FormSecurity intent="makeCalendarLink" />
								<button type="submit" className="button button--ghost button--small">
									{calendar.link ? t('passport.calendar.renew') : t('passport.calendar.make')}
								</button>
							</Form>
							{calendar.link ? (
								<Form method="post">
									<FormSecurity intent="revokeCalendarLink" />
									<button type="submit" className="button button--ghost button--small">
										{t('passport.calendar.revoke')}
									</button>
								</Form>
							) : null}
						</div>
					</Panel>
					<Panel id="vehicle-facts" title={t('vehicles.facts')}>
						<dl className="facts">
							{facts
								.filter(([, value]) => value !== null && value !== undefined && value !== '')
								.map(([label, value]) => (
									<Fact key={label} className="facts__row" label={label}>
										{value}
									</Fact>
								))}
						</dl>
						<div className="danger-zone">
							<ConfirmAction
								id="delete-vehicle"
								label={t('vehicles.delete')}
								title={t('vehicles.deleteTitle')}
								description={t('vehicles.deleteText')}
								confirmLabel={t('vehicles.deleteConfirm')}
								fields={{ intent: 'delete' }}
								triggerClassName="button button--ghost button--small button--danger-text"
								danger
							/>
						</div>
					</Panel>
				</div>
			</div>
		</>
	)
}
