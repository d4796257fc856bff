import { parseWithZod } from '@conform-to/zod/v4'
import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from 'react-router'
import { Link, useActionData, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { ButtonLink } from '~/components/button-link'
import { ConfirmAction } from '~/components/confirm-action'
import { Item, ListOrEmpty } from '~/components/item-list'
import { PageHeader } from '~/components/page-header'
import { Fact, Panel } from '~/components/panel'
import { PrivateLink, RemoveRecordAction, ServiceRecordForm, WarrantyList } from '~/components/passport'
import { ServiceHistory } from '~/components/service-history'
import { type ReminderAnswer, ReminderList } from '~/components/reminders'
import { StatusBadge } from '~/components/status-badge'
import { DeleteRecordSchema, ServiceRecordSchema, VehicleLinkSchema } from '~/domain/service-flow/passport-schema'
import { lastService } from '~/domain/service-flow/passport'
import { distanceText } from '~/domain/service-flow/vehicle-kinds'
import { addServiceRecord, deleteServiceRecord, setVehicleLink, vehiclePassport } from '~/domain/service-flow/passport.server'
import { ReminderOffSchema, reminderSchemas, SnoozeReminderSchema } from '~/domain/service-flow/reminder-schema'
import { reminderKinds } from '~/domain/service-flow/reminders'
import { changeReminder, saveReminder, vehicleReminderList } from '~/domain/service-flow/reminders.server'
import { requestPagePath } from '~/domain/service-flow/status'
import { deleteVehicle, getVehicle, vehicleHistory } from '~/domain/service-flow/vehicles.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { useLanguage } from '~/i18n/use-language'
import { requireUser } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { getEnv } from '~/utils/env.server'
import { formatDate, formatDayOfYear, formatMoney, formatNumber } from '~/utils/format'
import { routeMeta } from '~/utils/meta'
import { readFormUploads, withFormFiles } from '~/uploads/multipart.server'
import { encodeId } from '~/utils/public-id'
import { handleDomainError, idParam, or404 } from '~/utils/route-helpers.server'
import { redirectWithToast } from '~/utils/toast.server'

/**
 * A vehicle's page, its passport (issue 20): its details, its service history (the completed jobs
 * and the work done elsewhere the owner added), its warranties, its private calendar link, and its
 * requests. The owner's only: anyone else's is 404.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
	// Anyone signed in but its owner, a workshop too, finds no such vehicle: a 404, not a redirect (issue 20).
	const user = await requireUser(request)
	const vehicleId = idParam(params.slug)
	const language = await getLanguage(request)
	const vehicle = await or404(getVehicle(user.id, vehicleId))
	const [{ history, warranties }, requests, { reminders, tyreDays }] = await Promise.all([
		vehiclePassport(vehicle, language),
		vehicleHistory(user.id, vehicleId, language),
		vehicleReminderList(vehicle),
	])
	const t = getFixedT(language, 'customer')
	const slug = encodeId(vehicle.id)
	const calendarPath = `/vehicle-details/${slug}/calendar.ics`
	const historyPath = `/vehicle-details/${slug}/history.pdf`
	const privateLink = (path: string, token: string | null) => (token ? `${getEnv().APP_URL}${path}?token=${token}` : null)
	return {
		meta: { title: `${vehicle.brandName} ${vehicle.model} · ${vehicle.registrationNumber}` },
		slug,
		vehicle: { ...vehicle, calendarToken: undefined, historyToken: undefined, title: t('vehicles.detailTitle', { name: `${vehicle.brandName} ${vehicle.model}` }) },
		history,
		warranties,
		reminders,
		lastService: lastService(history),
		tyreDays: { autumn: formatDayOfYear(tyreDays.autumn, language), spring: formatDayOfYear(tyreDays.spring, language) },
		calendar: { download: calendarPath, link: privateLink(calendarPath, vehicle.calendarToken) },
		historyPdf: { download: historyPath, link: privateLink(historyPath, vehicle.historyToken) },
		requests: requests.map((item) => ({ ...item, slug: encodeId(item.id) })),
	}
}

/** The page's forms: work done elsewhere, the reminders, the private links, removing the vehicle. */
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
				return data({ intent, result: submission.reply(), documentErrors: uploads.errors.document ?? null, held: await uploads.hold() }, { status: uploads.status })
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

		if (intent === 'saveReminder') {
			const kind = reminderKinds.find((k) => k === formData.get('kind'))
			if (!kind) throw new Response('Not found', { status: 404 })
			const submission = parseWithZod(formData, { schema: reminderSchemas[kind] })
			if (submission.status !== 'success') return data({ intent, reminder: { kind, result: submission.reply() } satisfies ReminderAnswer }, { status: 400 })
			await or404(saveReminder(user.id, vehicleId, submission.value))
			return redirectWithToast(`${here}#reminders`, { type: 'success', key: 'customer:reminders.saved' }, { request })
		}

		if (intent === 'snoozeReminder') {
			const parsed = SnoozeReminderSchema.safeParse(Object.fromEntries(formData))
			if (!parsed.success) throw new Response('Not found', { status: 404 })
			await or404(changeReminder(user.id, vehicleId, parsed.data.kind, { snoozeDays: parsed.data.days }))
			return redirectWithToast(`${here}#reminders`, { type: 'success', key: 'customer:reminders.snoozed' }, { request })
		}

		if (intent === 'reminderOff') {
			const parsed = ReminderOffSchema.safeParse(Object.fromEntries(formData))
			if (!parsed.success) throw new Response('Not found', { status: 404 })
			await or404(changeReminder(user.id, vehicleId, parsed.data.kind, 'off'))
			return redirectWithToast(`${here}#reminders`, { type: 'success', key: 'customer:reminders.turnedOff' }, { request })
		}

		if (intent === 'vehicleLink') {
			const parsed = VehicleLinkSchema.safeParse(Object.fromEntries(formData))
			if (!parsed.success) throw new Response('Not found', { status: 404 })
			const link = parsed.data
			await or404(setVehicleLink(user.id, vehicleId, link.link, link.action))
			const key = `customer:passport.${link.link === 'calendar' ? 'calendar' : 'share'}.${link.action === 'make' ? 'made' : 'revoked'}`
			return redirectWithToast(`${here}#${link.link === 'calendar' ? 'calendar' : 'service-history'}`, { type: 'success', key }, { request })
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
	const { vehicle, history, warranties, reminders, lastService, tyreDays, calendar, historyPdf, requests, slug } = useLoaderData<typeof loader>()
	const actionData = useActionData<typeof action>()
	const recordAnswer = actionData && 'documentErrors' in actionData && actionData.intent === 'addRecord' ? actionData : null
	const reminderAnswer = actionData && 'reminder' in actionData ? actionData.reminder : null
	const facts: Array<[string, React.ReactNode]> = [
		[t('vehicle.registrationNumber'), <span key="plate" className="plate">{vehicle.registrationNumber}</span>],
		[t('vehicle.modelSpecification'), vehicle.modelSpecification],
		[t('vehicle.vehicleYear'), vehicle.vehicleYear],
		[t('vehicle.registrationYear'), vehicle.registrationYear],
		[t('vehicle.manufactureYear'), vehicle.manufactureYear],
		[t('vehicle.fuelType'), vehicle.fuelType ? t(`vehicle.fuelTypes.${vehicle.fuelType}`) : null],
		[t('vehicle.transmission'), t(`vehicle.transmissions.${vehicle.transmission}`)],
		// Its class and engine size, which prices follow (issue 35).
		[t('vehicle.vehicleClass'), t(`common:vehicleClass.${vehicle.vehicleClass}`)],
		[t('vehicle.engineCc'), vehicle.engineCc ? t('vehicle.engineCcValue', { cc: formatNumber(vehicle.engineCc, language) }) : null],
		[t('vehicle.mileage'), distanceText(t, vehicle.mileage, vehicle.odometerUnit)],
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
						<ServiceHistory entries={history} unit={vehicle.odometerUnit} actions={(entry) => <RemoveRecordAction entry={entry} />} />
						<details className="widen" open={recordAnswer ? true : undefined}>
							<summary>{t('passport.addElsewhere')}</summary>
							<p className="item__meta">{t('passport.addElsewhereText')}</p>
							<ServiceRecordForm unit={vehicle.odometerUnit} lastResult={recordAnswer?.result} documentErrors={recordAnswer?.documentErrors} held={recordAnswer?.held?.document} />
						</details>
						<div className="passport-share">
							<h3 className="item__title">{t('passport.share.shareTitle')}</h3>
							<p className="item__meta">{t('passport.share.shareText')}</p>
							<PrivateLink kind="history" link={historyPdf.link} download={historyPdf.download} />
						</div>
					</Panel>
					<Panel id="reminders" title={t('reminders.title')}>
						<ReminderList reminders={reminders} vehicleId={vehicle.id} lastService={lastService} unit={vehicle.odometerUnit} tyreDays={tyreDays} answer={reminderAnswer} />
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
						<WarrantyList warranties={warranties} unit={vehicle.odometerUnit} />
					</Panel>
					<Panel id="calendar" title={t('passport.calendar.title')}>
						<p>{t('passport.calendar.text')}</p>
						<PrivateLink kind="calendar" link={calendar.link} download={calendar.download} />
					</Panel>
					<Panel id="vehicle-transfer" title={t('transfer.sellTitle')}>
						<p>{t('transfer.sellText')}</p>
						<ButtonLink to={`/vehicle-details/${slug}/transfer`} kind="ghost">
							{t('transfer.sellLink')}
						</ButtonLink>
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
