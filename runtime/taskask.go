package runtime

import (
	"context"
	"errors"
	"fmt"
	"github.com/mcpgen/mcpgen/runtime/internal/taskrecord"
	"strings"
	"time"
)

// Asking inside a task: the questions a task's handler asks (Ask,
// Elicit, …) wait in the task's record, as its inputRequests, until
// tasks/update brings their answers from whichever replica the client
// reached; the handler's code is the same as in a plain call.

// ask asks the client qs through the task, and waits for the answers:
// the questions join the record's inputRequests (the task is then
// input_required) until tasks/update brings their answers, the handler's
// context ends, or Server.AskTimeout passes.
func (task *runningTask) ask(ctx context.Context, c *call, qs []Question) error {
	srv := task.srv
	if err := unsupported(&c.meta.Caps, qs); err != nil {
		return err
	}
	asked := make([]taskrecord.Question, len(qs))
	for i, q := range qs {
		params, err := q.params(true)
		if err != nil {
			return fmt.Errorf("%s: %w", q.what(), err)
		}
		asked[i] = taskrecord.Question{Key: task.questionKey(q), Method: q.method(), Params: params}
	}
	sctx, cancel := context.WithTimeout(ctx, storeTimeout)
	r, err := srv.modifyTask(sctx, task.id, func(r *taskrecord.Record) error {
		return r.Ask(asked, time.Now())
	})
	cancel()
	if err != nil {
		return fmt.Errorf("runtime: recording the questions in the task: %w", err)
	}
	srv.taskChanged(ctx, task.id, r)
	answers, err := task.awaitAnswers(ctx, asked)
	if err != nil {
		task.withdraw(asked)
		return err
	}
	for i, q := range qs {
		if err := answerBytes(q, answers[i]); err != nil {
			return fmt.Errorf("%s %q: %w", q.what(), asked[i].Key, err)
		}
	}
	return nil
}

// questionKey returns the key of q in the task's inputRequests: its own
// Key, or one made from its kind ("elicitation-1"), made unique for the
// task's lifetime, as the extension requires, by a suffix when it was
// used before.
func (task *runningTask) questionKey(q Question) string {
	task.mu.Lock()
	defer task.mu.Unlock()
	task.seq++
	key := q.key()
	if key == "" {
		key = fmt.Sprintf("%s-%d", strings.ReplaceAll(q.what(), " ", "-"), task.seq)
	}
	if task.keys == nil {
		task.keys = map[string]bool{}
	}
	for n, base := 2, key; task.keys[key]; n++ {
		key = fmt.Sprintf("%s-%d", base, n)
	}
	task.keys[key] = true
	return key
}

// awaitAnswers waits until the record holds an answer to each of asked,
// takes them out of it, and returns them in asked's order.
func (task *runningTask) awaitAnswers(ctx context.Context, asked []taskrecord.Question) ([][]byte, error) {
	srv := task.srv
	timeout := time.NewTimer(srv.askTimeout())
	defer timeout.Stop()
	poll := time.NewTicker(min(srv.Tasks.lease()/3, maxTaskAnswerPollInterval))
	defer poll.Stop()
	for {
		changed := task.wait()
		answers, err := task.takeAnswers(ctx, asked)
		if err != nil || answers != nil {
			return answers, err
		}
		select {
		case <-changed:
		case <-poll.C:
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		case <-timeout.C:
			return nil, fmt.Errorf("the client did not answer within %v", srv.askTimeout())
		}
	}
}

// takeAnswers takes the answers to asked out of the record if all are
// there; nil if some are not yet. A store that cannot be reached is not
// an error: the wait goes on.
func (task *runningTask) takeAnswers(ctx context.Context, asked []taskrecord.Question) ([][]byte, error) {
	var answers [][]byte
	sctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	_, err := task.srv.modifyTask(sctx, task.id, func(r *taskrecord.Record) error {
		var err error
		answers, err = r.TakeAnswers(questionKeys(asked), time.Now())
		return err
	})
	switch {
	case errors.Is(err, errTaskNotFound):
		return nil, errTaskRecordGone
	case err != nil:
		task.srv.logger().Warn("reading a task's answers", "task", task.id, "err", err)
		return nil, nil
	case answers == nil:
		return nil, nil
	}
	return answers, nil
}

// withdraw takes the questions asked, no longer waited for, out of the
// record.
func (task *runningTask) withdraw(asked []taskrecord.Question) {
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	r, err := task.srv.modifyTask(ctx, task.id, func(r *taskrecord.Record) error {
		return r.Withdraw(questionKeys(asked), time.Now())
	})
	if err == nil {
		task.srv.taskChanged(ctx, task.id, r)
	}
}

// questionKeys returns the keys of qs.
func questionKeys(qs []taskrecord.Question) []string {
	keys := make([]string, len(qs))
	for i, q := range qs {
		keys[i] = q.Key
	}
	return keys
}
