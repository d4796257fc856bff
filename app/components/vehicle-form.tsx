import { getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Form } from 'react-router'
import { useRef } from 'react'
import { useTranslation } from '~/i18n/translation'
import { defaultVehicleClass, ENGINE_CC_MAX, ENGINE_CC_MIN, fuelTypes, MAX_MILEAGE, odometerUnits, transmissions, vehicleClasses } from '~/domain/service-flow/vehicle-kinds'
import { type Choice } from '~/domain/site/reference'
import { VehicleSchema } from '~/domain/service-flow/vehicles'
import { Field, FormActions, FormAlert, FormSection, FormSecurity, SelectField } from './forms'

export type VehicleDefaults = Partial<Record<keyof (typeof VehicleSchema)['shape'], string>>

/** The vehicle form of /add-vehicle and /edit-vehicle (spec §3, required fields of spec §5). */
export function VehicleForm({
	id,
	brands,
	defaults,
	lastResult,
	submitLabel,
}: {
	id: string
	brands: Choice[]
	defaults?: VehicleDefaults
	lastResult?: SubmissionResult<string[]>
	submitLabel: string
}) {
	const { t } = useTranslation('customer')
	const [form, fields] = useForm({
		id,
		lastResult,
		// A new vehicle's odometer is in km unless its owner says otherwise (issue 32); its class is the one its fuel proposes (issue 35).
		defaultValue: { odometerUnit: 'km', vehicleClass: defaultVehicleClass(defaults?.fuelType), ...defaults },
		onValidate: ({ formData }) => parseWithZod(formData, { schema: VehicleSchema }),
		shouldRevalidate: 'onInput',
	})
	// The fuel the class was last proposed for (the form's, until the owner changes it).
	const lastFuel = useRef(defaults?.fuelType ?? '')
	const year = { inputMode: 'numeric' as const, min: 1900, max: new Date().getFullYear() + 1 }
	return (
		<Form method="post" className="form card" {...getFormProps(form)}>
			<FormSecurity />
			<FormAlert id={form.errorId} errors={form.errors} />
			<FormSection legend={t('vehicle.identity')}>
				<Field
					label={t('vehicle.registrationNumber')}
					required
					help={t('vehicle.registrationNumberHelp')}
					inputProps={{ ...getInputProps(fields.registrationNumber, { type: 'text' }), autoCapitalize: 'characters' }}
					errors={fields.registrationNumber.errors}
				/>
				<Field
					label={t('vehicle.vin')}
					help={t('vehicle.vinHelp')}
					inputProps={{ ...getInputProps(fields.vin, { type: 'text' }), maxLength: 17, autoCapitalize: 'characters' }}
					errors={fields.vin.errors}
				/>
				<SelectField
					label={t('vehicle.brand')}
					required
					placeholder={t('vehicle.choose')}
					options={brands}
					selectProps={getSelectProps(fields.brandId)}
					errors={fields.brandId.errors}
				/>
				<Field label={t('vehicle.model')} required inputProps={getInputProps(fields.model, { type: 'text' })} errors={fields.model.errors} />
				<Field
					className="field--wide"
					label={t('vehicle.modelSpecification')}
					required
					help={t('vehicle.modelSpecificationHelp')}
					inputProps={getInputProps(fields.modelSpecification, { type: 'text' })}
					errors={fields.modelSpecification.errors}
				/>
			</FormSection>
			<FormSection legend={t('vehicle.technical')}>
				<SelectField
					label={t('vehicle.transmission')}
					required
					placeholder={t('vehicle.choose')}
					options={transmissions.map((value) => ({ value, label: t(`vehicle.transmissions.${value}`) }))}
					selectProps={getSelectProps(fields.transmission)}
					errors={fields.transmission.errors}
				/>
				<SelectField
					label={t('vehicle.fuelType')}
					placeholder={t('vehicle.notSaid')}
					options={fuelTypes.map((value) => ({ value, label: t(`vehicle.fuelTypes.${value}`) }))}
					selectProps={{
						...getSelectProps(fields.fuelType),
						// With JavaScript the class follows the fuel while it is the one the last fuel proposed (an electric car is its own class).
						onChange: (event) => {
							const fuel = event.currentTarget.value
							const classSelect = event.currentTarget.form?.elements.namedItem(fields.vehicleClass.name)
							if (classSelect instanceof HTMLSelectElement && classSelect.value === defaultVehicleClass(lastFuel.current)) {
								classSelect.value = defaultVehicleClass(fuel)
								// Conform reads the form's values from its input events.
								classSelect.dispatchEvent(new Event('input', { bubbles: true }))
							}
							lastFuel.current = fuel
						},
					}}
					errors={fields.fuelType.errors}
				/>
				<SelectField
					label={t('vehicle.vehicleClass')}
					required
					help={t('vehicle.vehicleClassHelp')}
					options={vehicleClasses.map((value) => ({ value, label: t(`common:vehicleClass.${value}`) }))}
					selectProps={getSelectProps(fields.vehicleClass)}
					errors={fields.vehicleClass.errors}
				/>
				<Field
					label={t('vehicle.engineCc')}
					help={t('vehicle.engineCcHelp')}
					inputProps={{ ...getInputProps(fields.engineCc, { type: 'number' }), inputMode: 'numeric', min: ENGINE_CC_MIN, max: ENGINE_CC_MAX, step: 1 }}
					errors={fields.engineCc.errors}
				/>
				<Field
					label={t('vehicle.mileage')}
					required
					help={t('vehicle.mileageHelp')}
					inputProps={{ ...getInputProps(fields.mileage, { type: 'number' }), inputMode: 'numeric', min: 0, max: MAX_MILEAGE, step: 1 }}
					errors={fields.mileage.errors}
				/>
				<SelectField
					label={t('vehicle.odometerUnit')}
					required
					help={t('vehicle.odometerUnitHelp')}
					options={odometerUnits.map((value) => ({ value, label: t(`vehicle.odometerUnits.${value}`) }))}
					selectProps={getSelectProps(fields.odometerUnit)}
					errors={fields.odometerUnit.errors}
				/>
				<Field
					label={t('vehicle.vehicleYear')}
					required
					inputProps={{ ...getInputProps(fields.vehicleYear, { type: 'number' }), ...year }}
					errors={fields.vehicleYear.errors}
				/>
				<Field
					label={t('vehicle.registrationYear')}
					inputProps={{ ...getInputProps(fields.registrationYear, { type: 'number' }), ...year }}
					errors={fields.registrationYear.errors}
				/>
				<Field
					label={t('vehicle.manufactureYear')}
					inputProps={{ ...getInputProps(fields.manufactureYear, { type: 'number' }), ...year }}
					errors={fields.manufactureYear.errors}
				/>
				<Field
					className="field--wide"
					label={t('vehicle.shortDescription')}
					help={t('vehicle.shortDescriptionHelp')}
					inputProps={getInputProps(fields.shortDescription, { type: 'text' })}
					errors={fields.shortDescription.errors}
				/>
			</FormSection>
			<FormActions submit={submitLabel} large />
		</Form>
	)
}
