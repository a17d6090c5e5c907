"use client";
// The Share dialog of a collection: find a member of its Space (search is
// debounced; Up/Down walk the suggestions, Enter picks one, Escape clears),
// give them a role, share into another Space, and change or remove the
// current shares. Presentational: the page passes data and does the calls.
import { Share2, Trash2, UserRound, Users } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { SkeletonRows } from "@/components/ui/skeleton";
import type { Person, ShareRole, SpaceShare, UserShare } from "@/server/contracts/tester-sharing";

export const SEARCH_DEBOUNCE_MS = 250;

export interface ShareDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  collectionName: string;
  /** The collection's own Space (shares go to its members). */
  space: string;
  /** Other Spaces the caller can read: where it can be shared into. */
  spaces: readonly string[];
  /** Suggestions for the last search the dialog asked for. */
  people: readonly Person[];
  peopleLoading?: boolean;
  onSearch: (text: string) => void;
  userShares: readonly UserShare[];
  spaceShares: readonly SpaceShare[];
  sharesLoading?: boolean;
  pending?: boolean;
  /** The last failed action's API error, shown as it came (message and request id). */
  error?: unknown;
  onShareUser: (userId: string, role: ShareRole) => void;
  onShareSpace: (space: string) => void;
  onSetRole: (userId: string, role: ShareRole) => void;
  onRemoveUser: (userId: string) => void;
  onRemoveSpace: (space: string) => void;
}

const ROLE_LABEL: Record<ShareRole, string> = { viewer: "Can view", editor: "Can edit" };

function RoleSelect({ value, onChange, label, disabled }: { value: ShareRole; onChange: (role: ShareRole) => void; label: string; disabled?: boolean }) {
  return (
    <Select value={value} onValueChange={(v) => onChange(v as ShareRole)} disabled={disabled}>
      <SelectTrigger aria-label={label} className="w-32">
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {(Object.keys(ROLE_LABEL) as ShareRole[]).map((r) => (
          <SelectItem key={r} value={r}>
            {ROLE_LABEL[r]}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}

function personLabel(p: Pick<Person, "username" | "fullName">) {
  return p.fullName ? `${p.fullName} (${p.username})` : p.username;
}

/** The people search: a combobox over the suggestions. */
function PeoplePicker({ people, loading, onSearch, picked, onPick }: { people: readonly Person[]; loading?: boolean; onSearch: (text: string) => void; picked: Person | null; onPick: (p: Person | null) => void }) {
  const id = useId();
  const [text, setText] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  // onSearch should be stable (a state setter): a new one restarts the wait.
  useEffect(() => {
    const t = setTimeout(() => onSearch(text.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [text, onSearch]);
  const choose = (p: Person) => {
    onPick(p);
    setText(personLabel(p));
    setOpen(false);
  };
  const listId = `${id}-people`;
  const showList = open && !picked && text.trim().length > 0;
  return (
    <div className="relative min-w-0 flex-1">
      <Label htmlFor={`${id}-search`} className="sr-only">
        Find people
      </Label>
      <Input
        id={`${id}-search`}
        role="combobox"
        aria-expanded={showList}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={showList && people[active] ? `${listId}-${active}` : undefined}
        placeholder="Name, username or email"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setActive(0);
          setOpen(true);
          if (picked) onPick(null);
        }}
        onKeyDown={(e) => {
          if (e.key === "ArrowDown") {
            e.preventDefault();
            setOpen(true);
            setActive((i) => Math.min(i + 1, Math.max(people.length - 1, 0)));
          } else if (e.key === "ArrowUp") {
            e.preventDefault();
            setActive((i) => Math.max(i - 1, 0));
          } else if (e.key === "Enter" && showList && people[active]) {
            e.preventDefault();
            choose(people[active]);
          } else if (e.key === "Escape" && (showList || text)) {
            e.preventDefault();
            e.stopPropagation(); // the first Escape clears the search, not the dialog
            setText("");
            onPick(null);
            setOpen(false);
          }
        }}
      />
      {showList ? (
        <ul id={listId} role="listbox" aria-label="People" className="absolute z-50 mt-1 max-h-60 w-full overflow-auto rounded-md border bg-popover p-1 shadow-md">
          {loading ? <li className="px-2 py-1.5 text-sm text-muted-foreground">Searching…</li> : null}
          {!loading && people.length === 0 ? <li className="px-2 py-1.5 text-sm text-muted-foreground">No member of this Space matches</li> : null}
          {people.map((p, i) => (
            <li
              key={p.id}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              className={`flex cursor-pointer flex-col rounded-sm px-2 py-1.5 text-sm ${i === active ? "bg-accent text-accent-foreground" : ""}`}
              onMouseEnter={() => setActive(i)}
              onMouseDown={(e) => {
                e.preventDefault(); // keep focus in the input
                choose(p);
              }}
            >
              <span>{personLabel(p)}</span>
              {p.email ? <span className="text-xs text-muted-foreground">{p.email}</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

export function ShareDialog(props: ShareDialogProps) {
  return (
    <Dialog open={props.open} onOpenChange={props.onOpenChange}>
      {/* min-w-0 and no sideways scroll: a long name in a row must truncate, not widen the dialog and scroll its start out of view. */}
      <DialogContent className="max-w-xl overflow-x-hidden">{props.open ? <ShareForm {...props} /> : null}</DialogContent>
    </Dialog>
  );
}

function ShareForm(props: ShareDialogProps) {
  const [picked, setPicked] = useState<Person | null>(null);
  const [role, setRole] = useState<ShareRole>("viewer");
  const [space, setSpace] = useState("");
  const offered = props.spaces.filter((s) => !props.spaceShares.some((x) => x.namespace === s));
  return (
    <div className="flex min-w-0 flex-col gap-5">
      <DialogHeader>
        <DialogTitle>Share “{props.collectionName}”</DialogTitle>
        <DialogDescription>
          People must already be members of {props.space}; sharing never adds anyone to a Space. Other Spaces can view and copy the collection but not run it.
        </DialogDescription>
      </DialogHeader>
      <ApiErrorAlert error={props.error} title="That did not work" />

      <section aria-labelledby="share-people" className="flex flex-col gap-2">
        <h3 id="share-people" className="flex items-center gap-2 text-sm font-medium">
          <UserRound aria-hidden className="size-4" /> People in {props.space}
        </h3>
        <form
          className="flex items-start gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (picked) props.onShareUser(picked.id, role);
          }}
        >
          <PeoplePicker people={props.people} loading={props.peopleLoading} onSearch={props.onSearch} picked={picked} onPick={setPicked} />
          <RoleSelect value={role} onChange={setRole} label="Role for the new share" />
          <Button type="submit" disabled={!picked} pending={props.pending}>
            <Share2 aria-hidden /> Share
          </Button>
        </form>
      </section>

      <section aria-labelledby="share-spaces" className="flex flex-col gap-2">
        <h3 id="share-spaces" className="flex items-center gap-2 text-sm font-medium">
          <Users aria-hidden className="size-4" /> Another Space
        </h3>
        <form
          className="flex items-start gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (space) props.onShareSpace(space);
            setSpace("");
          }}
        >
          <Select value={space} onValueChange={setSpace} disabled={offered.length === 0}>
            <SelectTrigger aria-label="Space to share into" className="min-w-0 flex-1">
              <SelectValue placeholder={offered.length ? "Pick a Space" : "No other Space you can read"} />
            </SelectTrigger>
            <SelectContent>
              {offered.map((s) => (
                <SelectItem key={s} value={s}>
                  {s}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          <Button type="submit" variant="secondary" disabled={!space} pending={props.pending}>
            Share with Space
          </Button>
        </form>
      </section>

      <section aria-labelledby="share-current" className="flex flex-col gap-2">
        <h3 id="share-current" className="text-sm font-medium">
          Shared with
        </h3>
        {props.sharesLoading ? (
          <SkeletonRows rows={2} />
        ) : props.userShares.length === 0 && props.spaceShares.length === 0 ? (
          <p className="text-sm text-muted-foreground">Nobody yet. Members of {props.space} see it through their Space role.</p>
        ) : (
          <ul aria-label="Current shares" className="flex flex-col divide-y rounded-md border">
            {props.userShares.map((s) => (
              <li key={s.userId} className="flex items-center gap-2 px-3 py-2 text-sm" data-share-user={s.username}>
                <div className="flex min-w-0 flex-1 flex-col">
                  <span className="truncate">{personLabel(s)}</span>
                  {s.email ? <span className="truncate text-xs text-muted-foreground">{s.email}</span> : null}
                </div>
                <RoleSelect value={s.role} onChange={(r) => props.onSetRole(s.userId, r)} label={`Role of ${s.username}`} disabled={props.pending} />
                <Button type="button" variant="ghost" size="icon" aria-label={`Remove ${s.username}`} onClick={() => props.onRemoveUser(s.userId)} disabled={props.pending}>
                  <Trash2 aria-hidden />
                </Button>
              </li>
            ))}
            {props.spaceShares.map((s) => (
              <li key={s.namespace} className="flex items-center gap-2 px-3 py-2 text-sm" data-share-space={s.namespace}>
                <Users aria-hidden className="size-4 text-muted-foreground" />
                <span className="flex-1 truncate">Space {s.namespace}</span>
                <span className="text-xs text-muted-foreground">view and copy</span>
                <Button type="button" variant="ghost" size="icon" aria-label={`Remove Space ${s.namespace}`} onClick={() => props.onRemoveSpace(s.namespace)} disabled={props.pending}>
                  <Trash2 aria-hidden />
                </Button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
