"use client";
// One environment's editor: its name, its variables (secrets masked; a stored
// secret stays stored until typed over), Save (also Ctrl/Cmd+S) and Discard,
// make it the active one (or stop using it), and delete it. Leaving with
// unsaved changes asks first (the mock editor's guard: links, Back, closing
// the tab). The page remounts the editor from the server's copy after a save.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { CheckCircle2, CircleOff, Save, Trash2, Undo2 } from "lucide-react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { toast } from "sonner";
import { useTRPC } from "@/app/_trpc/client";
import { formatRelative } from "@/components/lib/format";
import { toastError } from "@/components/lib/toast-error";
import { Alert } from "@/components/ui/alert";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { VariablesTable } from "@/components/tester/variables-table";
import { useUnsavedGuard } from "@/components/lib/use-unsaved-guard";
import type { EnvironmentView } from "@/server/contracts/tester-environments";
import type { Variable } from "@/server/contracts/tester-request";
import { environmentPayload, variablesOf } from "./env-variables";

export interface EnvironmentEditorProps {
  environment: EnvironmentView;
  namespace: string | undefined;
  onDirtyChange: (dirty: boolean) => void;
  onDeleted: () => void;
}

export function EnvironmentEditor({ environment, namespace, onDirtyChange, onDeleted }: EnvironmentEditorProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const initial = useMemo(() => ({ name: environment.name, variables: variablesOf(environment) }), [environment]);
  const [name, setName] = useState(initial.name);
  const [variables, setVariables] = useState<Variable[]>(initial.variables);
  const [problems, setProblems] = useState<string[]>([]);
  const [deleting, setDeleting] = useState(false);
  const dirty = name !== initial.name || JSON.stringify(variables) !== JSON.stringify(initial.variables);
  const guard = useUnsavedGuard(dirty);
  const unticked = variables.filter((v) => !v.enabled).length;

  useEffect(() => onDirtyChange(dirty), [dirty, onDirtyChange]);
  // The page remounts the editor for another environment: it is not dirty any more.
  useEffect(() => () => onDirtyChange(false), [onDirtyChange]);

  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.apiTester.environments.pathKey() });
  const update = useMutation(
    trpc.apiTester.environments.update.mutationOptions({
      onSuccess: (env) => {
        toast.success(`${env.name} saved`);
        // The guard's history entry goes before the page remounts this editor from the saved copy.
        void guard.release().then(refresh);
      },
    }),
  );
  const activate = useMutation(
    trpc.apiTester.environments.activate.mutationOptions({
      onSuccess: (env) => {
        toast.success(`${env.name} is your active environment`);
        void refresh();
      },
      onError: toastError,
    }),
  );
  const deactivate = useMutation(
    trpc.apiTester.environments.deactivate.mutationOptions({
      onSuccess: () => {
        toast.success("No active environment");
        void refresh();
      },
      onError: toastError,
    }),
  );
  const remove = useMutation(
    trpc.apiTester.environments.remove.mutationOptions({
      onSuccess: () => {
        toast.success(`${environment.name} deleted`);
        setDeleting(false);
        void guard.release().then(() => {
          onDeleted();
          return refresh();
        });
      },
      onError: toastError,
    }),
  );

  const save = useCallback(() => {
    if (!dirty || update.isPending) return;
    const trimmed = name.trim();
    const payload = environmentPayload(variables, environment.secrets);
    const found = [...(trimmed ? [] : ["The environment needs a name"]), ...(payload.ok ? [] : payload.problems)];
    setProblems(found);
    if (found.length || !payload.ok) return;
    update.mutate({ namespace, id: environment.id, patch: { name: trimmed, variables: payload.variables, secrets: payload.secrets } });
  }, [dirty, update, name, variables, environment, namespace]);

  const saveRef = useRef(save);
  useEffect(() => {
    saveRef.current = save;
  }, [save]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === "s") {
        e.preventDefault();
        saveRef.current();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const discard = () => {
    setName(initial.name);
    setVariables(initial.variables);
    setProblems([]);
    update.reset();
  };

  return (
    <Card aria-label={`Environment ${environment.name}`}>
      <CardContent className="flex flex-col gap-5 pt-6">
        <div className="flex flex-wrap items-end gap-3">
          <Field label="Name" htmlFor="environment-name" className="min-w-56 flex-1">
            {(aria) => <Input {...aria} value={name} maxLength={255} onChange={(e) => setName(e.target.value)} />}
          </Field>
          <div className="flex flex-wrap items-center gap-2">
            {environment.isActive ? (
              <>
                <Badge variant="success">
                  <CheckCircle2 aria-hidden /> Active
                </Badge>
                <Button variant="outline" pending={deactivate.isPending} onClick={() => deactivate.mutate({ namespace })}>
                  <CircleOff aria-hidden /> Deactivate
                </Button>
              </>
            ) : (
              <Button variant="outline" pending={activate.isPending} onClick={() => activate.mutate({ namespace, id: environment.id })}>
                <CheckCircle2 aria-hidden /> Activate
              </Button>
            )}
            <Button variant="outline" className="text-destructive hover:text-destructive" onClick={() => setDeleting(true)} aria-label={`Delete ${environment.name}`}>
              <Trash2 aria-hidden /> Delete
            </Button>
          </div>
        </div>
        <p className="-mt-2 text-xs text-muted-foreground">
          {environment.isActive ? "Your active environment: requests you send in this namespace use its variables." : "Activate it to use its variables when you send requests; the runner can pick any environment."} Updated{" "}
          {formatRelative(environment.updatedAt)}
          {environment.createdBy ? `; created by ${environment.createdBy}` : ""}.
        </p>
        <VariablesTable label="Environment variables" variables={variables} onChange={setVariables} />
        {problems.length ? (
          <Alert variant="error" title="Not saved">
            <ul className="list-disc pl-4">
              {problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          </Alert>
        ) : null}
        <ApiErrorAlert error={update.error} title="Not saved" />
        <div className="flex flex-wrap items-center gap-2 border-t pt-4">
          <Button onClick={save} disabled={!dirty} pending={update.isPending} aria-keyshortcuts="Control+S">
            <Save aria-hidden /> Save
          </Button>
          <Button variant="ghost" onClick={discard} disabled={!dirty || update.isPending}>
            <Undo2 aria-hidden /> Discard changes
          </Button>
          <span className="text-xs text-muted-foreground" aria-live="polite">
            {dirty ? "Unsaved changes · Ctrl+S saves" : "All changes saved"}
            {unticked ? ` · ${unticked === 1 ? "1 unticked variable is" : `${unticked} unticked variables are`} not saved (environments keep no disabled variables)` : ""}
          </span>
        </div>
      </CardContent>
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title={`Delete ${environment.name}?`}
        description="Its variables and secret values are deleted for everyone in this namespace, and it stops being anyone's active environment. Past runs keep their results."
        confirmLabel="Delete environment"
        pending={remove.isPending}
        onConfirm={() => remove.mutate({ namespace, id: environment.id })}
      />
      <ConfirmDialog
        open={guard.target !== null}
        onOpenChange={(o) => !o && guard.stay()}
        title="Leave without saving?"
        description={`${environment.name} has changes that are not saved. They are lost if you leave now.`}
        confirmLabel="Leave without saving"
        onConfirm={guard.leave}
      />
    </Card>
  );
}
