import { getFormProps, getInputProps, getSelectProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from 'react-router'
import { Form, Link, useActionData, useLoaderData } from 'react-router'
import { useHydrated } from 'remix-utils/use-hydrated'
import { useTranslation } from '~/i18n/translation'
import { ButtonLink } from '~/components/button-link'
import { ConfirmAction } from '~/components/confirm-action'
import { ErrorList, Field, FormActions, FormAlert, FormSecurity, IntentButton, SelectField } from '~/components/forms'
import { PageHeader } from '~/components/page-header'
import { Panel } from '~/components/panel'
import { agenda } from '~/domain/booking/agenda.server'
import { addDays, agendaWeekDay, weekDays } from '~/domain/booking/calendar'
import { feedUrls, revokeFeed, startFeed } from '~/domain/booking/calendar-feed.server'
import { type CalendarSettingsForm, type CalendarSettingsInput, CalendarSettingsSchema, INTERVALS_PER_DAY, STEP_CHOICES, hourFields, settingsFormValues, weekdayKeys } from '~/domain/booking/capacity'
import { calendarSettings, saveCalendarSettings } from '~/domain/booking/capacity.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import calendarStyles from '~/styles/calendar.css?url'
import { type AdsHandle } from '~/utils/ad-places'
import { requireUser, workshopActor } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { formatClock, formatDate, formatWeekdayDate } from '~/utils/format'
import { routeMeta } from '~/utils/meta'
import { readForm } from '~/uploads/multipart.server'
import { handleDomainError, or404 } from '~/utils/route-helpers.server'
import { tallinnDay } from '~/utils/time'
import { redirectWithToast } from '~/utils/toast.server'
import { isRealDateTime } from '~/utils/validation'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: calendarStyles }]

/** The agenda's view from the address: `?view=day|week&day=YYYY-MM-DD` (a day that is no day: today). */
function viewOf(request: Request) {
	const search = new URL(request.url).searchParams
	const view = search.get('view') === 'day' ? 'day' : 'week'
	const asked = search.get('day') ?? ''
	const day = /^\d{4}-\d{2}-\d{2}$/.test(asked) && isRealDateTime(asked) ? asked : todayOf(view)
	return { view, day } as const
}

/** The day the agenda opens on: today, or on a Sunday the coming week (agendaWeekDay). */
function todayOf(view: 'day' | 'week') {
	return view === 'week' ? agendaWeekDay(tallinnDay()) : tallinnDay()
}

/**
 * The workshop's calendar (issue 33): its agenda of booked jobs by day or week (printable), its
 * capacity and hours for bookings, and its private calendar feed.
 */
export async function loader({ request }: LoaderFunctionArgs) {
	const { workshopId } = workshopActor(await requireUser(request, { role: 'workshop' }))
	const language = await getLanguage(request)
	const t = getFixedT(language, 'booking')
	const { view, day } = viewOf(request)
	const from = view === 'day' ? day : weekDays(day)[0]!
	const [days, settings] = await Promise.all([agenda(workshopId, { from, days: view === 'day' ? 1 : 7 }, language), or404(calendarSettings(workshopId))])
	const step = view === 'day' ? 1 : 7
	const here = (target: string, asView: 'day' | 'week' = view) => `/workshop-calendar?view=${asView}&day=${target}`
	return {
		meta: { title: t('calendar.title') },
		view,
		day,
		range: view === 'day' ? formatWeekdayDate(day, language) : t('calendar.range', { from: formatDate(from, language), to: formatDate(addDays(from, 6), language) }),
		links: { previous: here(addDays(from, -step)), next: here(addDays(from, step)), today: here(todayOf(view)), day: here(day, 'day'), week: here(day, 'week') },
		days: days.map((each) => ({
			day: each.day,
			heading: formatWeekdayDate(each.day, language),
			holiday: each.holiday ? t(`holidays.${each.holiday}`) : null,
			dayOff: each.dayOff ? (each.dayOff.note ? t('calendar.dayOffWithNote', { note: each.dayOff.note }) : t('calendar.dayOff')) : null,
			isToday: each.day === tallinnDay(),
			bookings: each.bookings.map((booking) => ({
				id: booking.id,
				time: t('calendar.time', { starts: formatClock(booking.startsAt, language), ends: formatClock(booking.endsAt, language) }),
				bay: booking.bayName || t('calendar.bay', { position: booking.bayPosition }),
				vehicle: booking.vehicle,
				plate: booking.plate,
				services: booking.services.join(', '),
				customer: booking.customer,
				phone: booking.phone,
				status: booking.status,
				offerSlug: booking.offerSlug,
			})),
		})),
		settings: {
			values: settingsFormValues(settings),
			ownHours: settings.ownHours,
			daysOff: settings.daysOff.map((dayOff) => ({ day: dayOff.day, label: formatDate(dayOff.day, language), note: dayOff.note })),
		},
		feed: settings.feedToken ? feedUrls(settings.feedToken) : null,
	}
}

export async function action({ request }: ActionFunctionArgs) {
	const { workshopId } = workshopActor(await requireUser(request, { role: 'workshop' }))
	const formData = await readForm(request)
	await validateCsrf(request, formData)
	const url = new URL(request.url)
	const back = `/workshop-calendar${url.search}`
	const intent = formData.get('intent')
	if (intent === 'startFeed') {
		await or404(startFeed(workshopId))
		return redirectWithToast(`${back}#calendar-feed`, { type: 'success', key: 'booking:feed.started' }, { request })
	}
	if (intent === 'revokeFeed') {
		await revokeFeed(workshopId)
		return redirectWithToast(`${back}#calendar-feed`, { type: 'success', key: 'booking:feed.revoked' }, { request })
	}
	if (intent !== 'settings') throw new Response('Not found', { status: 404 })
	const submission = parseWithZod(formData, { schema: CalendarSettingsSchema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	try {
		await or404(saveCalendarSettings(workshopId, submission.value))
	} catch (error) {
		return handleDomainError(error, { as: 'form', submission })
	}
	return redirectWithToast(back, { type: 'success', key: 'booking:calendar.saved' }, { request })
}

export const meta = routeMeta<typeof loader>()

// A working page of the workshop's: no ads (app/utils/ad-places.ts).
export const handle: AdsHandle = { ads: false }

export default function WorkshopCalendarPage() {
	const { t } = useTranslation('booking')
	return (
		<div className="calendar-page">
			<PageHeader title={t('calendar.title')} subtitle={t('calendar.subtitle')} />
			<div className="stack">
				<Agenda />
				<SettingsForm />
				<Feed />
			</div>
		</div>
	)
}

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>

function Agenda() {
	const { t } = useTranslation('booking')
	const { view, range, links, days } = useLoaderData<typeof loader>()
	const hydrated = useHydrated()
	return (
		<Panel id="agenda-title" title={t('calendar.agendaTitle')} className="panel agenda-panel">
			<p className="agenda__range">{range}</p>
			<div className="agenda__nav">
				<nav className="agenda__views" aria-label={t('calendar.views')}>
					<Link to={links.day} className="button button--ghost button--small" aria-current={view === 'day' ? 'page' : undefined}>
						{t('calendar.dayView')}
					</Link>
					<Link to={links.week} className="button button--ghost button--small" aria-current={view === 'week' ? 'page' : undefined}>
						{t('calendar.weekView')}
					</Link>
				</nav>
				<div className="agenda__moves">
					<ButtonLink to={links.previous} kind="ghost" size="small">
						{t(view === 'day' ? 'calendar.previousDay' : 'calendar.previousWeek')}
					</ButtonLink>
					<ButtonLink to={links.today} kind="ghost" size="small">
						{t('calendar.today')}
					</ButtonLink>
					<ButtonLink to={links.next} kind="ghost" size="small">
						{t(view === 'day' ? 'calendar.nextDay' : 'calendar.nextWeek')}
					</ButtonLink>
					{/* Without JavaScript the browser's own print prints the page as the print stylesheet lays it out. */}
					{hydrated ? (
						<button type="button" className="button button--ghost button--small" onClick={() => window.print()}>
							{t('calendar.print')}
						</button>
					) : null}
				</div>
			</div>
			<ol className={`agenda agenda--${view}`}>
				{days.map((day) => (
					<AgendaDay key={day.day} day={day} />
				))}
			</ol>
		</Panel>
	)
}

function AgendaDay({ day }: { day: LoaderData['days'][number] }) {
	const { t } = useTranslation('booking')
	const shut = day.holiday || day.dayOff
	return (
		<li className={['agenda__day', shut ? 'agenda__day--shut' : '', day.isToday ? 'agenda__day--today' : ''].filter(Boolean).join(' ')}>
			<h3 className="agenda__heading">{day.heading}</h3>
			{day.holiday ? <p className="agenda__mark agenda__mark--holiday">{t('calendar.holiday', { name: day.holiday })}</p> : null}
			{day.dayOff ? <p className="agenda__mark agenda__mark--off">{day.dayOff}</p> : null}
			{day.bookings.length ? (
				<ul className="agenda__bookings">
					{day.bookings.map((booking) => (
						<li key={booking.id} className={`agenda__booking agenda__booking--${booking.status}`}>
							<p className="agenda__time">
								<strong>{booking.time}</strong> <span className="agenda__bay">{booking.bay}</span>
							</p>
							<p className="agenda__car">
								{booking.vehicle} <span className="plate plate--small">{booking.plate}</span>
							</p>
							{booking.services ? <p className="agenda__services">{booking.services}</p> : null}
							<p className="agenda__customer">
								{booking.customer}
								{booking.phone ? (
									<>
										{' · '}
										<a href={`tel:${booking.phone.replace(/[^+0-9]/g, '')}`}>{booking.phone}</a>
									</>
								) : null}
							</p>
							<p className="agenda__foot">
								<span className={`badge badge--booking-${booking.status}`}>{t(`calendar.status.${booking.status}`)}</span>
								<Link to={`/workshop-bid-details/${booking.offerSlug}`} className="agenda__open">
									{t('calendar.openOffer')}
									<span className="visually-hidden">
										{' '}
										{booking.time} {booking.plate}
									</span>
								</Link>
							</p>
						</li>
					))}
				</ul>
			) : (
				<p className="agenda__empty">{t('calendar.noBookings')}</p>
			)}
		</li>
	)
}

function SettingsForm() {
	const { t } = useTranslation('booking')
	const { settings } = useLoaderData<typeof loader>()
	const actionData = useActionData<typeof action>()
	const [form, fields] = useForm<CalendarSettingsForm, CalendarSettingsInput>({
		id: 'calendar-settings',
		lastResult: actionData?.result,
		defaultValue: settings.values,
		onValidate: ({ formData }) => parseWithZod(formData, { schema: CalendarSettingsSchema }),
		shouldRevalidate: 'onInput',
	})
	return (
		<Panel id="calendar-settings-title" title={t('calendar.settingsTitle')} className="panel calendar-settings">
			<Form method="post" className="form" {...getFormProps(form)}>
				<FormSecurity intent="settings" />
				<FormAlert id={form.errorId} errors={form.errors} />
				<div className="form-grid form-grid--two">
					<Field
						label={t('calendar.bays')}
						required
						help={t('calendar.baysHelp')}
						inputProps={{ ...getInputProps(fields.bays, { type: 'number' }), min: 1, max: 20, inputMode: 'numeric' }}
						errors={fields.bays.errors}
					/>
				</div>

				<fieldset className="fieldset">
					<legend>{t('calendar.hoursTitle')}</legend>
					<p className="field__help">{t('calendar.hoursHelp')}</p>
					{settings.ownHours ? null : <p className="field__help">{t('calendar.profileHours')}</p>}
					<div className="week-hours">
						{weekdayKeys.map((day) => (
							<fieldset key={day} className="week-hours__day">
								<legend>{t(`calendar.days.${day}`)}</legend>
								<div className="week-hours__slots">
									{Array.from({ length: INTERVALS_PER_DAY }, (_, index) => {
										const names = hourFields(day, index + 1)
										const opens = fields[names.opens]
										const closes = fields[names.closes]
										const errors = [...(opens.errors ?? []), ...(closes.errors ?? [])]
										const errorId = `${opens.id}-error`
										const label = (edge: string) => t('calendar.interval', { day: t(`calendar.days.${day}`), number: index + 1, edge })
										return (
											<div key={index} className="week-hours__slot">
												<div className="week-hours__pair">
													<input
														{...getInputProps(opens, { type: 'time' })}
														className="field__input"
														aria-label={label(t('calendar.opens'))}
														aria-invalid={opens.errors?.length ? true : undefined}
														aria-describedby={opens.errors?.length ? errorId : undefined}
													/>
													<span aria-hidden="true">–</span>
													<input
														{...getInputProps(closes, { type: 'time' })}
														className="field__input"
														aria-label={label(t('calendar.closes'))}
														aria-invalid={closes.errors?.length ? true : undefined}
														aria-describedby={closes.errors?.length ? errorId : undefined}
													/>
												</div>
												<ErrorList id={errorId} errors={errors} />
											</div>
										)
									})}
								</div>
							</fieldset>
						))}
					</div>
				</fieldset>

				<fieldset className="fieldset">
					<legend>{t('calendar.daysOffTitle')}</legend>
					<p className="field__help">{t('calendar.daysOffHelp')}</p>
					{settings.daysOff.length ? (
						<ul className="days-off">
							{settings.daysOff.map((dayOff) => (
								<li key={dayOff.day}>
									<span>
										{dayOff.label}
										{dayOff.note ? ` · ${dayOff.note}` : ''}
									</span>
									<label className="checkbox checkbox--inline">
										<input type="checkbox" name="removeDaysOff" value={dayOff.day} />
										<span>{t('calendar.removeDayOff', { day: dayOff.label })}</span>
									</label>
								</li>
							))}
						</ul>
					) : (
						<p>{t('calendar.noDaysOff')}</p>
					)}
					<div className="form-grid form-grid--two">
						<Field label={t('calendar.dayOff')} inputProps={getInputProps(fields.dayOff, { type: 'date' })} errors={fields.dayOff.errors} />
						<Field label={t('calendar.dayOffNote')} inputProps={{ ...getInputProps(fields.dayOffNote, { type: 'text' }), maxLength: 200 }} errors={fields.dayOffNote.errors} />
					</div>
				</fieldset>

				<fieldset className="fieldset">
					<legend>{t('calendar.rulesTitle')}</legend>
					<div className="form-grid form-grid--two">
						<Field
							label={t('calendar.minNoticeHours')}
							required
							help={t('calendar.minNoticeHelp')}
							inputProps={{ ...getInputProps(fields.minNoticeHours, { type: 'number' }), min: 0, max: 168, inputMode: 'numeric' }}
							errors={fields.minNoticeHours.errors}
						/>
						<Field
							label={t('calendar.horizonDays')}
							required
							help={t('calendar.horizonHelp')}
							inputProps={{ ...getInputProps(fields.horizonDays, { type: 'number' }), min: 1, max: 366, inputMode: 'numeric' }}
							errors={fields.horizonDays.errors}
						/>
						<Field
							label={t('calendar.bufferMinutes')}
							required
							help={t('calendar.bufferHelp')}
							inputProps={{ ...getInputProps(fields.bufferMinutes, { type: 'number' }), min: 0, max: 480, inputMode: 'numeric' }}
							errors={fields.bufferMinutes.errors}
						/>
						<SelectField
							label={t('calendar.stepMinutes')}
							required
							options={STEP_CHOICES.map((minutes) => ({ value: String(minutes), label: t('calendar.stepOption', { minutes }) }))}
							selectProps={getSelectProps(fields.stepMinutes)}
							errors={fields.stepMinutes.errors}
						/>
					</div>
					<label className="checkbox">
						<input {...getInputProps(fields.openOnPublicHolidays, { type: 'checkbox' })} /> <span>{t('calendar.openOnPublicHolidays')}</span>
					</label>
				</fieldset>
				<FormActions submit={t('calendar.save')} large />
			</Form>
		</Panel>
	)
}

function Feed() {
	const { t } = useTranslation('booking')
	const { feed } = useLoaderData<typeof loader>()
	return (
		<Panel id="calendar-feed" title={t('feed.title')} className="panel calendar-feed">
			<p>{t('feed.text')}</p>
			{feed ? (
				<>
					<label className="field__label" htmlFor="calendar-feed-link">
						{t('feed.link')}
					</label>
					<input id="calendar-feed-link" className="field__input private-link" readOnly value={feed.https} aria-describedby="calendar-feed-help" />
					<p id="calendar-feed-help" className="field__help">
						{t('feed.linkHelp')}
					</p>
				</>
			) : (
				<p>{t('feed.none')}</p>
			)}
			<div className="private-link__actions">
				{feed ? (
					<a href={feed.webcal} className="button button--ghost button--small">
						{t('feed.subscribe')}
					</a>
				) : null}
				<IntentButton intent="startFeed" className={feed ? 'button button--ghost button--small' : 'button button--primary button--small'}>
					{feed ? t('feed.renew') : t('feed.start')}
				</IntentButton>
				{feed ? (
					<ConfirmAction
						id="revoke-feed"
						label={t('feed.revoke')}
						title={t('feed.revokeTitle')}
						description={t('feed.revokeText')}
						confirmLabel={t('feed.revoke')}
						fields={{ intent: 'revokeFeed' }}
						triggerClassName="button button--ghost button--small button--danger-text"
						danger
					/>
				) : null}
			</div>
		</Panel>
	)
}
