package runtime

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/wire"
)

// The messages of the bus are sealed with the replicas' key, as task
// records are (wire.Box, for a purpose of their own) and bound to the
// bus's channel: whoever can publish on the store's channel (anyone who
// reaches a shared Redis) can neither read them (a task's status carries
// its result and whom it belongs to) nor forge one that a replica acts on
// (a cancel of another client's task, say). What arrives on the channel
// is taken for hostile: a message that does not open, or opens to
// anything but a well-formed message, is dropped, never acted on.

// A busMessage is one message of the bus.
type busMessage struct {
	// Origin is the replica that published it, which ignores it.
	Origin string `json:"o"`
	// Kind is "list" (Feature's list changed), "uri" (the resource URI
	// was updated) or "task" (Event happened to Task).
	Kind    string `json:"k"`
	Feature string `json:"f,omitempty"`
	URI     string `json:"u,omitempty"`
	Task    string `json:"t,omitempty"`
	// Event is "cancel", "input" (answers arrived) or "status" (the task's
	// status changed; Detail is its DetailedTask, a JSON object, and Owner
	// whom it belongs to, for the listeners that follow it).
	Event  string          `json:"e,omitempty"`
	Owner  string          `json:"w,omitempty"`
	Detail json.RawMessage `json:"d,omitempty"`
}

// busPurpose derives the key of bus messages from Server.StateKey, apart
// from the key of task records; busAD binds each to the bus's channel.
const busPurpose = "mcpgen bus message v1"

var busAD = []byte(busChannel)

// maxBusSlack is what a bus message may take besides the largest result
// a task keeps, which a status message carries.
const maxBusSlack = 1 << 20

// busBox returns what seals the bus's messages, made from StateKey at
// its first use, which is never before serving: publish and publishLater
// send nothing while StateKey is empty.
func (s *Server) busBox() *wire.Box {
	s.bus.boxOnce.Do(func() { s.bus.box = wire.NewBox(s.StateKey, busPurpose) })
	return s.bus.box
}

// sealBus encodes m for the bus, sealed.
func (s *Server) sealBus(m *busMessage) ([]byte, error) {
	plain, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	return s.busBox().Seal(plain, busAD), nil
}

// errBusTooLarge is why a message larger than any the replicas send is
// dropped unopened.
var errBusTooLarge = errors.New("larger than any message a replica sends")

// openBus returns the message that data, as the bus delivered it, holds;
// an error says why it is to be dropped: it is too large, does not open
// under the replicas' key (it was forged, changed, or sealed with another
// StateKey), or is not a well-formed message.
func (s *Server) openBus(data []byte) (*busMessage, error) {
	_, _, resultSize := s.Tasks.limits()
	if len(data) > resultSize+maxBusSlack {
		return nil, errBusTooLarge
	}
	plain, err := s.busBox().Open(data, busAD)
	if err != nil {
		return nil, err
	}
	return readBusMessage(plain)
}

// readBusMessage reads a message, opened, checking each member for what
// delivering it takes: a known kind, feature and event, the task or URI
// it is about, and for a status, a DetailedTask that is a JSON object.
// Members of the wrong type, duplicated or unknown make it malformed.
func readBusMessage(plain []byte) (*busMessage, error) {
	v, err := jsonvalue.Parse(plain)
	if err != nil {
		return nil, fmt.Errorf("malformed message: %w", err)
	}
	if v.Kind() != jsonvalue.Object {
		return nil, errors.New("malformed message: not an object")
	}
	m := &busMessage{}
	for name, mv := range v.Members() {
		if name == "d" {
			if mv.Kind() != jsonvalue.Object {
				return nil, errors.New("malformed message: the task's detail is not an object")
			}
			m.Detail = mv.Raw()
			continue
		}
		field := m.stringField(name)
		if field == nil || mv.Kind() != jsonvalue.String {
			return nil, fmt.Errorf("malformed message: member %.40q", name)
		}
		*field = mv.Str()
	}
	if err := m.check(); err != nil {
		return nil, fmt.Errorf("malformed message: %w", err)
	}
	return m, nil
}

// stringField is the string member name of m; nil for any other name.
func (m *busMessage) stringField(name string) *string {
	switch name {
	case "o":
		return &m.Origin
	case "k":
		return &m.Kind
	case "f":
		return &m.Feature
	case "u":
		return &m.URI
	case "t":
		return &m.Task
	case "e":
		return &m.Event
	case "w":
		return &m.Owner
	}
	return nil
}

// check reports what m lacks for its kind.
func (m *busMessage) check() error {
	switch m.Kind {
	case "list":
		if _, ok := featureNamed(m.Feature); !ok {
			return fmt.Errorf("unknown feature %.40q", m.Feature)
		}
	case "uri":
		if m.URI == "" {
			return errors.New("an update of no URI")
		}
	case "task":
		switch {
		case m.Task == "":
			return errors.New("an event of no task")
		case m.Event == "status" && m.Detail == nil:
			return errors.New("a status without the task's detail")
		case m.Event != "cancel" && m.Event != "input" && m.Event != "status":
			return fmt.Errorf("unknown task event %.40q", m.Event)
		}
	default:
		return fmt.Errorf("unknown kind %.40q", m.Kind)
	}
	return nil
}
