/** A titled list of conditions in the mock form, with what its paths mean. */
export function ConditionGroup({ title, hint, children }: { title: string; hint: string; children: React.ReactNode }) {
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="text-sm font-medium">{title}</legend>
      <p className="text-xs text-muted-foreground">{hint}. All conditions must pass.</p>
      {children}
    </fieldset>
  );
}
