import { type ChangeEvent, type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react'
import { transmissions } from '~/domain/service-flow/vehicle-kinds'
import { MAX_REQUEST_IMAGES, WidgetRequestSchema, type WidgetRequestField, widgetRequestFields } from '~/domain/service-flow/widget-request'
import { formatDateTime } from '~/utils/format'
import { dateToTallinnInput } from '~/utils/time'
import { ApiError, type ApiWorkshopDetails, type Filters } from './api'
import { useWidget } from './context'
import { BotTrap, Failure, Loading, SendButton } from './ui'

/**
 * "Ask for an offer" (issue 37, decision 0153): the portal's request form for a visitor without an
 * account. Services, the car, the wished time (the addressed workshop's next free times to pick
 * from), the place, details, up to three photos, and how to reach them. Checked with the portal's
 * schema as they send it (then as they type); the portal's own field errors and its daily limit are
 * shown next to the fields. Sent, it waits for the link the portal e-mails: nothing reaches a
 * workshop before.
 */

type TextField = Exclude<WidgetRequestField, 'services' | 'images' | 'workshopId'>
type Values = Record<TextField, string>
type Errors = Partial<Record<WidgetRequestField | 'form', string>>

const empty: Values = { brand: '', model: '', vehicleYear: '', registrationNumber: '', transmission: '', mileage: '', preferredAt: '', city: '', location: '', details: '', firstName: '', lastName: '', email: '', mobile: '' }
/** A photo is at most this big, as on the portal (app/uploads): refused here before it travels. */
const MAX_PHOTO_BYTES = 5 * 1024 * 1024
const PHOTO_TYPES = 'image/png,image/jpeg,image/webp'

/**
 * What the schemas can say (app/utils/validation.ts and the vehicle and request forms), as texts of
 * the portal's dictionaries: listed so that the build carries them (widgets/rollup.config.mjs).
 */
const validationTexts = [
	'common:validation.required',
	'common:validation.email',
	'common:validation.min3',
	'common:validation.tooLong',
	'common:validation.mobile',
	'common:validation.choose',
	'common:validation.controlCharacters',
	'common:validation.number',
	'common:validation.dateTime',
	'common:validation.futureDate',
	'common:validation.realDate',
	'common:validation.registrationNumber',
	'common:validation.readingNumber',
	'common:validation.readingNegative',
	'common:validation.readingTooHigh',
	'common:validation.unknownChoice',
	'common:validation.invalid',
]

/** The gearboxes' names, a group of keys (`customer:vehicle.transmissions.manual`…). */
const TRANSMISSIONS = 'customer:vehicle.transmissions'

type Loaded = { filters: Filters; workshop: ApiWorkshopDetails['workshop'] | null }
type State = { status: 'loading' } | { status: 'error'; error: unknown } | { status: 'ready'; loaded: Loaded }

/** `services`: the partner's preset, codes as a comma-separated text or a list; unknown ones are ignored. */
export function RequestWidget({ workshopId, services: preset }: { workshopId?: string; services?: string | string[] }) {
	const { api, t, language } = useWidget()
	const id = useId()
	const [state, setState] = useState<State>({ status: 'loading' })
	const [attempt, setAttempt] = useState(0)
	const [values, setValues] = useState<Values>(empty)
	const [services, setServices] = useState<string[]>([])
	const [alsoOthers, setAlsoOthers] = useState(true)
	const [photos, setPhotos] = useState<File[]>([])
	const [errors, setErrors] = useState<Errors>({})
	const [submitted, setSubmitted] = useState(false)
	const [sending, setSending] = useState(false)
	const [done, setDone] = useState<string | null>(null)
	const form = useRef<HTMLFormElement>(null)
	const trap = useRef<HTMLInputElement>(null)
	const thanks = useRef<HTMLHeadingElement>(null)

	useEffect(() => {
		const controller = new AbortController()
		setState({ status: 'loading' })
		Promise.all([api.filters(controller.signal), workshopId ? api.details(workshopId, 1, controller.signal).then((details) => details.workshop) : Promise.resolve(null)]).then(
			([filters, workshop]) => {
				const wanted = (Array.isArray(preset) ? preset : (preset ?? '').split(',')).map((code) => code.trim().toLowerCase())
				setServices(filters.services.filter((service) => wanted.includes(service.code)).map((service) => service.code))
				setState({ status: 'ready', loaded: { filters, workshop } })
			},
			(error: unknown) => controller.signal.aborted || setState({ status: 'error', error }),
		)
		return () => controller.abort()
	}, [api, workshopId, preset, attempt])

	useEffect(() => {
		if (done) thanks.current?.focus()
	}, [done])

	// Schema errors are translation keys under common:validation (app/utils/validation.ts).
	const validate = (next: Values, chosen: string[], files: File[]): Errors => {
		const found: Errors = {}
		// An empty field is left out, as the portal's forms leave it out (Conform): "required", not "not a number".
		const given = Object.fromEntries(Object.entries(next).filter(([, value]) => value !== ''))
		const result = WidgetRequestSchema.safeParse({ ...given, services: chosen })
		if (!result.success) {
			for (const issue of result.error.issues) {
				const field = issue.path[0] as WidgetRequestField
				const key = issue.message.includes(':') ? issue.message : `common:${issue.message}`
				found[field] ??= t(validationTexts.includes(key) ? key : 'common:validation.invalid')
			}
		}
		if (files.length > MAX_REQUEST_IMAGES) found.images = t('common:upload.tooMany', { max: MAX_REQUEST_IMAGES })
		else if (files.some((file) => file.size > MAX_PHOTO_BYTES)) found.images = t('common:upload.tooLarge')
		return found
	}
	const revalidate = (next: Values, chosen: string[], files: File[]) => submitted && setErrors(validate(next, chosen, files))
	const update = (field: TextField, value: string) => {
		const next = { ...values, [field]: value }
		setValues(next)
		revalidate(next, services, photos)
	}
	const toggleService = (code: string, on: boolean) => {
		const next = on ? [...services, code] : services.filter((chosen) => chosen !== code)
		setServices(next)
		revalidate(values, next, photos)
	}
	const addPhotos = (event: ChangeEvent<HTMLInputElement>) => {
		const next = [...photos, ...Array.from(event.currentTarget.files ?? [])]
		event.currentTarget.value = ''
		setPhotos(next)
		revalidate(values, services, next)
	}
	const removePhoto = (index: number) => {
		const next = photos.filter((_, i) => i !== index)
		setPhotos(next)
		revalidate(values, services, next)
	}

	const focusFirst = (found: Errors) => {
		const first = widgetRequestFields.find((field) => found[field])
		const target = first ? form.current?.querySelector<HTMLElement>(`[name="${first}"]`) : form.current?.querySelector<HTMLElement>('.alert')
		target?.focus()
	}

	const submit = async (event: FormEvent) => {
		event.preventDefault()
		setSubmitted(true)
		const found = validate(values, services, photos)
		setErrors(found)
		if (Object.keys(found).length) return focusFirst(found)
		const body = new FormData()
		for (const [name, value] of Object.entries(values)) if (value) body.append(name, value)
		for (const code of services) body.append('services', code)
		if (workshopId) {
			body.append('workshopId', workshopId)
			if (alsoOthers) body.append('alsoOthers', 'on')
		}
		for (const photo of photos) body.append('images', photo, photo.name)
		body.append('name__confirm', trap.current?.value ?? '')
		setSending(true)
		try {
			const answer = await api.request(body)
			setDone(answer.message)
		} catch (error) {
			const server: Errors = {}
			if (error instanceof ApiError && error.status === 422) {
				for (const [field, list] of Object.entries(error.errors)) server[(field === 'workshopId' ? 'form' : field) as WidgetRequestField] = list[0]
				server.form ??= error.message || t('common:validation.invalid')
			} else server.form = error instanceof ApiError && error.message && [403, 413, 429].includes(error.status) ? error.message : t('widgets:sendFailed')
			setErrors(server)
			// After the paint, so that the error the focus lands on is there.
			setTimeout(() => focusFirst(server))
		} finally {
			setSending(false)
		}
	}

	const title = (
		<h2 id={`${id}-title`} className="widget__title" ref={thanks} tabIndex={done ? -1 : undefined}>
			{done ? t('widgets:request.checkEmailTitle') : t('widgets:request.title')}
		</h2>
	)
	if (done) {
		return (
			<section className="widget widget--request" aria-labelledby={`${id}-title`}>
				{title}
				<p className="state state--success" role="status">
					{done}
				</p>
				<div className="actions">
					<button
						type="button"
						className="button"
						onClick={() => {
							setDone(null)
							setSubmitted(false)
							setErrors({})
							setPhotos([])
							setValues({ ...empty, firstName: values.firstName, lastName: values.lastName, email: values.email, mobile: values.mobile })
						}}
					>
						{t('widgets:request.another')}
					</button>
				</div>
			</section>
		)
	}
	if (state.status === 'loading') return <Loading />
	if (state.status === 'error') return <Failure error={state.error} retry={() => setAttempt((n) => n + 1)} />
	const { filters, workshop } = state.loaded

	const errorId = (field: WidgetRequestField) => `${id}-${field}-error`
	const fieldProps = (field: TextField) => ({
		id: `${id}-${field}`,
		name: field,
		value: values[field],
		'aria-invalid': errors[field] ? true : undefined,
		'aria-describedby': [errors[field] ? errorId(field) : '', `${id}-${field}-help`].filter(Boolean).join(' ') || undefined,
		onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) => update(field, event.currentTarget.value),
	})
	const error = (field: WidgetRequestField) =>
		errors[field] ? (
			<p id={errorId(field)} className="field__error">
				{errors[field]}
			</p>
		) : null
	const field = (name: TextField, label: string, control: ReactNode, options: { help?: string; wide?: boolean; optional?: boolean } = {}) => (
		<div className={options.wide ? 'field field--wide' : 'field'}>
			{/* A required field's star is drawn by CSS for the eye; `required` tells assistive technology. */}
			<label htmlFor={`${id}-${name}`} className={options.optional ? undefined : 'required'}>
				{label}
			</label>
			{options.help ? (
				<p id={`${id}-${name}-help`} className="muted small">
					{options.help}
				</p>
			) : null}
			{control}
			{error(name)}
		</div>
	)
	const earliest = dateToTallinnInput(new Date())

	return (
		<section className="widget widget--request" aria-labelledby={`${id}-title`}>
			{title}
			<p className="muted">{t('widgets:request.intro')}</p>
			<form ref={form} className="request" noValidate onSubmit={submit} aria-labelledby={`${id}-title`}>
				{errors.form ? (
					<p className="alert" role="alert" tabIndex={-1}>
						{errors.form}
					</p>
				) : null}
				{workshop ? (
					<div className="addressed field--wide">
						<p className="addressed__to">{t('customer:request.addressedTo', { workshop: workshop.name })}</p>
						<label className="checkbox">
							<input type="checkbox" name="alsoOthers" checked={alsoOthers} onChange={(event) => setAlsoOthers(event.currentTarget.checked)} /> {t('customer:request.alsoOthers')}
						</label>
					</div>
				) : null}

				<fieldset className="group field--wide" aria-describedby={[errors.services ? errorId('services') : '', `${id}-services-help`].filter(Boolean).join(' ')}>
					<legend className="required">{t('customer:request.services')}</legend>
					<p id={`${id}-services-help`} className="muted small">
						{t('customer:request.servicesHelp')}
					</p>
					<div className="checkboxes">
						{filters.services.map((service) => (
							<label key={service.code} className="checkbox">
								<input
									type="checkbox"
									name="services"
									value={service.code}
									checked={services.includes(service.code)}
									aria-invalid={errors.services ? true : undefined}
									onChange={(event) => toggleService(service.code, event.currentTarget.checked)}
								/>{' '}
								{service.name}
							</label>
						))}
					</div>
					{error('services')}
				</fieldset>

				<fieldset className="group grid field--wide">
					<legend>{t('widgets:request.carSection')}</legend>
					{field(
						'brand',
						t('customer:vehicle.brand'),
						<select {...fieldProps('brand')} required>
							<option value="">{t('customer:vehicle.choose')}</option>
							{filters.brands.map((brand) => (
								<option key={brand.code} value={brand.code}>
									{brand.name}
								</option>
							))}
						</select>,
					)}
					{field('model', t('customer:vehicle.model'), <input {...fieldProps('model')} type="text" maxLength={60} required />)}
					{field('vehicleYear', t('customer:vehicle.vehicleYear'), <input {...fieldProps('vehicleYear')} type="text" inputMode="numeric" maxLength={4} required />)}
					{field(
						'registrationNumber',
						t('customer:vehicle.registrationNumber'),
						<input {...fieldProps('registrationNumber')} type="text" maxLength={20} autoCapitalize="characters" required />,
						{ help: t('customer:vehicle.registrationNumberHelp') },
					)}
					{field(
						'transmission',
						t('customer:vehicle.transmission'),
						<select {...fieldProps('transmission')} required>
							<option value="">{t('customer:vehicle.choose')}</option>
							{transmissions.map((kind) => (
								<option key={kind} value={kind}>
									{t(`${TRANSMISSIONS}.${kind}`)}
								</option>
							))}
						</select>,
					)}
					{field('mileage', t('customer:vehicle.mileage'), <input {...fieldProps('mileage')} type="text" inputMode="numeric" maxLength={9} required />, { help: t('widgets:request.mileageHelp') })}
				</fieldset>

				<fieldset className="group grid field--wide">
					<legend>{t('customer:request.whenWhere')}</legend>
					{workshop?.nextFreeTimes.length ? (
						<div className="field field--wide">
							<p className="label" id={`${id}-free`}>
								{t('widgets:request.freeTimes', { workshop: workshop.name })}
							</p>
							<p className="muted small">{t('widgets:request.freeTimesHint')}</p>
							<ul className="free-times" aria-labelledby={`${id}-free`}>
								{workshop.nextFreeTimes.map((time) => {
									const local = dateToTallinnInput(time.startsAt)
									const label = formatDateTime(time.startsAt, language)
									return (
										<li key={time.startsAt}>
											<button type="button" className="button" aria-pressed={values.preferredAt === local} aria-label={t('widgets:request.pickTime', { time: label })} onClick={() => update('preferredAt', local)}>
												<time dateTime={time.startsAt}>{label}</time>
											</button>
										</li>
									)
								})}
							</ul>
						</div>
					) : null}
					{field('preferredAt', t('customer:request.preferredAt'), <input {...fieldProps('preferredAt')} type="datetime-local" min={earliest} required />)}
					{field(
						'city',
						t('customer:request.city'),
						<select {...fieldProps('city')}>
							<option value="">{t('customer:request.anyCity')}</option>
							{filters.cities.map((city) => (
								<option key={city.code} value={city.code}>
									{city.name}
								</option>
							))}
						</select>,
						{ optional: true },
					)}
					{field('location', t('customer:request.location'), <input {...fieldProps('location')} type="text" maxLength={200} required />, { help: t('customer:request.locationHelp'), wide: true })}
				</fieldset>

				{field('details', t('customer:request.details'), <textarea {...fieldProps('details')} rows={4} maxLength={2000} required />, { help: t('customer:request.detailsHelp'), wide: true })}

				<div className="field field--wide">
					<label htmlFor={`${id}-images`}>{t('customer:request.images')}</label>
					<p id={`${id}-images-help`} className="muted small">
						{t('common:upload.imagesHelp')}
					</p>
					<input
						id={`${id}-images`}
						name="images"
						type="file"
						accept={PHOTO_TYPES}
						multiple
						disabled={photos.length >= MAX_REQUEST_IMAGES}
						aria-invalid={errors.images ? true : undefined}
						aria-describedby={[errors.images ? errorId('images') : '', `${id}-images-help`].filter(Boolean).join(' ')}
						onChange={addPhotos}
					/>
					{photos.length ? (
						<ul className="photos" aria-label={t('widgets:request.photosChosen')}>
							{photos.map((photo, index) => (
								<li key={`${photo.name}-${index}`}>
									<span>{photo.name}</span>
									<button type="button" className="button button--small" onClick={() => removePhoto(index)}>
										{t('widgets:request.removePhoto', { name: photo.name })}
									</button>
								</li>
							))}
						</ul>
					) : null}
					{error('images')}
				</div>

				<fieldset className="group grid field--wide">
					<legend>{t('widgets:request.contactSection')}</legend>
					{field('firstName', t('auth:register.firstName'), <input {...fieldProps('firstName')} type="text" autoComplete="given-name" maxLength={100} required />)}
					{field('lastName', t('auth:register.lastName'), <input {...fieldProps('lastName')} type="text" autoComplete="family-name" maxLength={100} required />)}
					{field('email', t('auth:register.email'), <input {...fieldProps('email')} type="email" autoComplete="email" maxLength={254} required />)}
					{field('mobile', t('auth:register.mobile'), <input {...fieldProps('mobile')} type="tel" autoComplete="tel" maxLength={20} required />, { help: t('auth:register.mobileHelp') })}
				</fieldset>

				<BotTrap id={id} trap={trap} />
				<p className="muted small field--wide">
					{t('widgets:request.terms')} <a href={api.portal(`/terms-conditions?lng=${language}`)}>{t('widgets:request.termsLink')}</a> ·{' '}
					<a href={api.portal(`/privacy-poicy?lng=${language}`)}>{t('widgets:request.privacyLink')}</a>
				</p>
				<SendButton sending={sending} label={t('customer:request.submit')} />
			</form>
		</section>
	)
}
